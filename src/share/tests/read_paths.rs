//! Read paths in links: the lease path keeps the byte the old yes/no `lease_reads` wrote (so every
//! older link reads as before, and a lease run makes the very same link), and a run reading by read
//! index or from followers round-trips and replays to the same trace hash.

use super::*;
use quorumlab_sim::config::ReadPath;

fn fragment_with(read_path: ReadPath) -> String {
    let mut run = sample_run();
    run.scenario.raft.read_path = read_path;
    encode_fragment(&run).unwrap()
}

#[test]
fn the_log_and_lease_paths_write_the_bytes_the_old_flag_wrote() {
    let body = |read_path: ReadPath| {
        let mut run = sample_run();
        run.scenario.raft.read_path = read_path;
        v4::encode(&body_convert::from_run(&run))
    };
    let (log, lease) = (body(ReadPath::Log), body(ReadPath::Lease));
    // The options are three one-byte fields in a row: pre_vote (on in the sample), check_quorum, and
    // where the old flag stood, the read path.
    let at = log
        .windows(3)
        .zip(lease.windows(3))
        .position(|(old, new)| old != new && old == [1, 0, 0] && new == [1, 0, 1])
        .expect("the runs differ in one option byte, 0 for the log and 1 for the lease");
    assert_eq!(log.len(), lease.len());
    assert_eq!(body(ReadPath::ReadIndex)[at + 2], 2);
    assert_eq!(body(ReadPath::Follower)[at + 2], 3);
}

#[test]
fn every_read_path_survives_a_link() {
    for read_path in ReadPath::ALL {
        let decoded = decode_fragment(&fragment_with(read_path)).unwrap();
        assert_eq!(decoded.scenario.raft.read_path, read_path);
    }
}

#[test]
fn a_read_index_run_replays_from_its_link_to_the_same_trace_hash() {
    let mut scenario = Scenario::new("read index", 3, 60_000);
    scenario.raft.read_path = ReadPath::ReadIndex;
    let mut session = Session::new(scenario).unwrap();
    for (at_ms, kind) in [(600, RequestKind::Put), (700, RequestKind::Get)] {
        session.advance_to(SimTime::from_ms(at_ms));
        let request = Action::Request {
            count: 2,
            target: NodeTarget::Leader,
            kind,
        };
        session.apply(&request);
    }
    session.advance_to(SimTime::from_ms(1_500));
    let hash = session.world().trace_hash();
    let fragment = encode_fragment(&capture(&session)).unwrap();
    let opened = open(decode_fragment(&fragment).unwrap()).unwrap();
    assert_eq!(opened.world().trace_hash(), hash);
    assert_eq!(opened.scenario().raft.read_path, ReadPath::ReadIndex);
}
