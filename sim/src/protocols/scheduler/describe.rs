//! The invoice scheduler's facts in plain words: who believes it leads, and what the invoice store
//! did with each minute's invoices (written, written twice, refused for a stale token).

use super::SchedulerFact;
use crate::base::ids::NodeId;
use crate::base::units::FencingToken;
use crate::contract::entry::describe::{Described, Describer, Telling, Weight};

#[derive(Default)]
pub struct SchedulerDescriber;

impl Describer<SchedulerFact> for SchedulerDescriber {
    fn describe(
        &mut self,
        node: NodeId,
        fact: &SchedulerFact,
        telling: &Telling<'_>,
    ) -> Option<Described> {
        match *fact {
            SchedulerFact::SchedulerLeader { leads } => {
                let who = telling.name(node);
                let text = if leads {
                    format!(
                        "{who} now believes it is the leader: it alone should generate invoices"
                    )
                } else {
                    format!("{who} stops believing it leads and stops generating invoices")
                };
                let weight = if leads { Weight::Key } else { Weight::Notable };
                Some(Described::new(weight, text, vec![node]))
            }
            SchedulerFact::InvoiceWritten {
                client,
                minute,
                token,
                duplicate,
                refused,
            } => Some(invoice(
                node, client, minute, token, duplicate, refused, telling,
            )),
        }
    }
}

fn invoice(
    store: NodeId,
    client: NodeId,
    minute: u64,
    token: FencingToken,
    duplicate: bool,
    refused: bool,
    telling: &Telling<'_>,
) -> Described {
    let (store_name, client_name) = (telling.name(store), telling.name(client));
    let nodes = vec![client, store];
    if refused {
        let text = format!(
            "{store_name} refuses {client_name}'s invoices for minute {minute}: token {token} is below \
             the highest it has seen"
        );
        Described::new(Weight::Notable, text, nodes)
    } else if duplicate {
        let text = format!(
            "{client_name} generates minute {minute}'s invoices again: customers are billed twice"
        );
        Described::new(Weight::Notable, text, nodes)
    } else {
        let text = format!("{client_name} generates the invoices for minute {minute}");
        Described::new(Weight::Routine, text, nodes).coalescing("invoice")
    }
}
