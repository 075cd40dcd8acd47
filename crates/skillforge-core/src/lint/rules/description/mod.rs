//! The `description` field (SF3xx).

pub mod description_block_scalar;
pub mod description_listing_truncated;
pub mod description_missing;
pub mod description_placeholder;
pub mod description_too_long;
pub mod description_usage_cue_missing;
pub mod description_xml_tags;
