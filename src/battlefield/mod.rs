//! The table: geometry in inches, and the ground.

pub mod geometry;
mod terrain;

pub use geometry::{Rect, Vec2, segment_intersects_segment, angle_diff};
pub use terrain::{Area, AreaKind, Camp, Ground, LinearObstacle, ObstacleKind};
