//! Compare mode: two runs of one scenario and seed that differ in one or more named options
//! ([`variation`]), advanced in lockstep with every action applied to both at the same instant
//! ([`pair`]), and the line saying how they differ so far (`views::difference`).

pub mod lockstep;
pub mod pair;
pub mod variation;
