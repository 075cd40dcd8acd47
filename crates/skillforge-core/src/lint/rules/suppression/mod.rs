//! Suppression comments (SF9xx).

pub mod unused_ignore_comment;
