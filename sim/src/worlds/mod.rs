//! The worlds layer: the closed set of actors and messages a world holds, how a coordination world is
//! laid out and built, and the registry listing one entry per world. It may import the protocols layer
//! and below; it sits under the engine so that an event is a plain `match` (see `sim/ENGINE.md`,
//! "Layers").

pub mod actor;
pub mod coordination;
pub mod history_tap;
pub mod registry;
