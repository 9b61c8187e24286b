fn main() {
    quorumlab::start();
}
