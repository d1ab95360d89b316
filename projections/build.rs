//! The read database's migrations are embedded by `sqlx::migrate!`: a migration added or changed
//! must rebuild the crate even when no Rust file changed.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
