//! The decision interface the engine asks, and [`ParamAi`], which answers from each command's
//! doctrine parameters. The engine enforces legality: a doctrine cannot cheat.

use crate::army::{CommandId, CommanderId, Formation, UnitId};
use crate::battlefield::Vec2;
use crate::events::Response;
use crate::rules::ironsides::battle::View;
use crate::rules::ironsides::battle::command::GeneralOrder;

/// A unit's order for its side's movement phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Order {
    Hold,
    /// Advance straight towards a point.
    Advance {
        to: Vec2,
    },
    /// Close on an enemy and charge it home.
    Charge {
        target: UnitId,
    },
    /// Move away from the enemy towards a point (always at the starting-CV rate).
    FallBack {
        to: Vec2,
    },
    /// Change formation (hedgehog, march column, line, mount or dismount).
    Form(Formation),
    /// Site the guns: the drivers go home.
    Unlimber,
    /// Limbered guns advance towards a point with what unlimbering leaves of their move, then
    /// unlimber there (E7: a light gun loses 6" of its 12" to unlimber).
    Site {
        to: Vec2,
    },
}

/// Up to four responses, in order of preference.
pub type Responses = [Option<Response>; 4];

/// Every decision point the rules offer. Methods read the battle through a [`View`], never the
/// dice to come, and must answer deterministically.
pub trait Doctrine {
    /// Step 2: where a general rides and whom he leads.
    fn general(&mut self, v: &View, g: CommanderId) -> GeneralOrder;
    /// Step 3: how the Captain-General splits `lps` among the commands he can reach
    /// (`reach[command id]`); writes `out[command id]`.
    fn split_lps(
        &mut self,
        v: &View,
        cg: CommanderId,
        lps: u8,
        reach: &[bool; 64],
        out: &mut [u8; 64],
    );
    /// Step 6: higher rallies first.
    fn rally_priority(&mut self, v: &View, u: UnitId) -> i32;
    /// Step 6: how many paid attempts to make on this unit (LPs permitting).
    fn rally_attempts(&mut self, v: &View, u: UnitId) -> u8;
    fn rerolls_on_rally(&mut self, v: &View, u: UnitId) -> bool;
    /// Step 7: the unit's order.
    fn order(&mut self, v: &View, u: UnitId) -> Order;
    /// Steps 8/10: the target to fire at, or None to save the shot.
    fn fire_target(&mut self, v: &View, u: UnitId, candidates: &[UnitId]) -> Option<UnitId>;
    /// Re-rolls to spend on a reaction test of this unit (of those available).
    fn reaction_rerolls(&mut self, v: &View, u: UnitId, available: u8) -> u8;
    /// Step 12: the stand-off the target of a charge chooses (2"-6").
    fn standoff(&mut self, v: &View, target: UnitId, charger: UnitId) -> f64;
    /// Step 13: emergency responses in order of preference.
    fn responses(&mut self, v: &View, u: UnitId, charger: UnitId) -> Responses;
    /// Step 14: whether this unit makes a support charge against `charger`.
    fn support_charge(&mut self, v: &View, u: UnitId, charger: UnitId) -> bool;
    /// An opportunity charge by `u` at an enemy within reach at the end of its move.
    fn opportunity_charge(&mut self, v: &View, u: UnitId, enemy: UnitId) -> bool;
    /// An opportunity charge by `u` at an enemy within reach at the start of its move, before
    /// it has moved. By default none: a unit that waits keeps the defender's advantages (the
    /// charger's test to close, the countercharge and its free shot).
    fn opportunity_charge_at_start(&mut self, v: &View, u: UnitId, enemy: UnitId) -> bool {
        let _ = (v, u, enemy);
        false
    }
    /// Retreat distance after a failed test (4"-12").
    fn retreat_distance(&mut self, v: &View, u: UnitId) -> f64;
    /// A pursuer with nowhere else to go: make for the enemy camp?
    fn take_camp(&mut self, v: &View, u: UnitId) -> bool;
}

/// The doctrine of each command, from its parameters.
#[derive(Debug, Clone, Copy, Default)]
pub struct ParamAi;

pub(crate) fn command_doctrine<'a>(
    v: &View<'a>,
    cmd: CommandId,
) -> &'a crate::doctrine::DoctrineParams {
    let i = usize::from(v.battle.commands[usize::from(cmd)].doctrine);
    &v.setup.doctrines[i]
}
