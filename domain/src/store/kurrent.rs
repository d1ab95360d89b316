//! stub (work in progress)
#![allow(missing_docs)]
use super::StoreError;
pub struct KurrentEventStore;
impl KurrentEventStore {
    pub async fn connect(_url: &str) -> Result<std::sync::Arc<dyn super::EventStore>, StoreError> { unimplemented!() }
}
