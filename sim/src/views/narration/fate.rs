//! What a learner's hand on one message means: "you dropped n1's AppendEntries to n3; n3 will hear
//! at the next heartbeat". The sentence is read from the message's label, the word the trace and the
//! picture already use for it.
//!
//! Raft's labels get their own reading because its lessons are where a dropped message is first
//! tried; any other message gets the rule every protocol here follows: the sender tries again only
//! when it is waiting for an answer and its own timer runs out.

/// The line for a dropped (`held_ms: None`) or held message, `from` and `to` already named.
pub fn intercepted_text(label: &str, from: &str, to: &str, held_ms: Option<u64>) -> String {
    match held_ms {
        None => format!(
            "You dropped {from}'s {label} to {to}; {}",
            dropped_consequence(label, from, to)
        ),
        Some(held_ms) => format!(
            "You held {from}'s {label} to {to} back by {held_ms} ms; {}",
            held_consequence(label, from, to)
        ),
    }
}

fn dropped_consequence(label: &str, from: &str, to: &str) -> String {
    match label {
        "Heartbeat" | "AppendEntries" => format!(
            "{to} will hear from {from} at the next heartbeat, which carries whatever entries it missed"
        ),
        "AppendEntries ok" | "AppendEntries reject" => format!(
            "{to} does not learn how far {from}'s log got until {from} answers the next heartbeat"
        ),
        "RequestVote" | "PreVote" => format!(
            "{from} gets no answer from {to} this round: it needs a majority from the others, or it \
             tries again when its election timer runs out"
        ),
        "Vote granted" | "PreVote granted" => format!(
            "{to} cannot count {from}'s vote: it needs a majority from the others, or it tries again \
             when its election timer runs out"
        ),
        "Vote denied" | "PreVote denied" => {
            format!("{to} never hears the refusal, which changes nothing it decides")
        }
        _ => format!(
            "{to} never gets it; {from} sends again only if it is waiting for an answer and its \
             timer runs out first"
        ),
    }
}

fn held_consequence(label: &str, from: &str, to: &str) -> String {
    match label {
        "Heartbeat" | "AppendEntries" => format!(
            "if {to}'s election timer runs out before then, it stops waiting for {from} and asks for votes"
        ),
        "RequestVote" | "PreVote" | "Vote granted" | "PreVote granted" => {
            "the election waits on the answers that do arrive; a late one may find the term already over"
                .to_string()
        }
        _ => format!(
            "{to} gets it late, possibly after newer messages from {from}, and acts on it as it is then"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_heartbeat_says_when_the_follower_hears_again() {
        let text = intercepted_text("Heartbeat", "n1", "n3", None);
        assert!(
            text.starts_with(
                "You dropped n1's Heartbeat to n3; n3 will hear from n1 at the next heartbeat"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_held_message_says_how_long_and_an_unknown_one_gets_the_general_rule() {
        let text = intercepted_text("Acquire", "A", "n2", Some(200));
        assert!(
            text.starts_with("You held A's Acquire to n2 back by 200 ms; n2 gets it late"),
            "{text}"
        );
        let dropped = intercepted_text("Acquire", "A", "n2", None);
        assert!(
            dropped.contains("A sends again only if it is waiting"),
            "{dropped}"
        );
    }
}
