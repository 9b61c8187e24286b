//! The checkers' sentences say "token N" in every world. Those sentences are part of the hashed trace,
//! which recorded share links pin, so the engine keeps them word for word; where a world's holds carry
//! a unique value rather than a fencing token (registry capability `tokens_fence`), the panels reword
//! them as they show them.

use quorumlab_sim::entry::hold_number;

const TOKEN_WORD: &str = "token ";

/// `detail` with every "token N" read as a shortened value where tokens do not fence.
pub fn reworded_holds(detail: &str, tokens_fence: bool) -> String {
    if tokens_fence {
        return detail.to_string();
    }
    let mut reworded = String::with_capacity(detail.len());
    let mut rest = detail;
    while let Some(at) = rest.find(TOKEN_WORD) {
        reworded.push_str(&rest[..at]);
        let after = &rest[at + TOKEN_WORD.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        match after[..digits].parse::<u64>() {
            Ok(number) => reworded.push_str(&hold_number(false, number)),
            Err(_) => reworded.push_str(&rest[at..at + TOKEN_WORD.len() + digits]),
        }
        rest = &after[digits..];
    }
    reworded.push_str(rest);
    reworded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_values_are_called_values_and_fencing_tokens_stay() {
        let detail = "B (token 25769803779) touched the store again after the holder of token 21474836492 had";
        assert_eq!(
            reworded_holds(detail, false),
            "B (value …3779) touched the store again after the holder of value …6492 had"
        );
        assert_eq!(reworded_holds(detail, true), detail);
        assert_eq!(
            reworded_holds("no token here, token x", false),
            "no token here, token x"
        );
    }
}
