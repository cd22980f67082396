//! The table: geometry in inches, and the ground.

pub mod geometry;
pub mod grid;
pub mod sweep;
mod terrain;

pub use geometry::{Rect, Vec2, angle_diff, segment_intersects_segment};
pub use terrain::{Area, AreaKind, Camp, Ground, LinearObstacle, ObstacleKind};
