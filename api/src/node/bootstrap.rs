//! What a new marketplace starts with, appended as events so the log stays the only truth.

use domain::{
    EventStore, ExpectedVersion, Metadata, StoreError,
    catalog::{CatalogEvent, DEFAULT_CATEGORIES},
};

/// Appends the default categories once: `NoStream` makes concurrent starts harmless (one
/// wins, the others see a conflict and carry on).
pub async fn seed_categories(store: &dyn EventStore) -> Result<(), StoreError> {
    let metadata = Metadata { actor: Some("system".into()), ..Metadata::default() };
    let events = DEFAULT_CATEGORIES
        .iter()
        .map(|(id, name)| CatalogEvent::CategoryAdded { id: (*id).into(), name: (*name).into() }.to_new_event(metadata.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    match store.append("categories", ExpectedVersion::NoStream, events).await {
        Ok(_) | Err(StoreError::WrongExpectedVersion { .. }) => Ok(()),
        Err(err) => Err(err),
    }
}
