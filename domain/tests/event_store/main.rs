//! The event store conformance suite: the same assertions, unchanged, against every backend.
//!
//! Each test opens a fresh store (a new SQLite file, a new Postgres database) and drops it after.

mod fixtures;
#[cfg(feature = "kurrentdb")]
mod kurrent;
mod suite;

/// Generates one `#[tokio::test]` per suite function for a backend.
macro_rules! conformance {
    ($backend:ident: $($test:ident),+ $(,)?) => {
        mod $backend {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $test() {
                    let Some(fixture) = crate::fixtures::$backend().await else { return };
                    crate::suite::$test(&fixture).await;
                }
            )+
        }
    };
}

/// The suite functions that need nothing but the store, plus `$more`.
macro_rules! portable {
    ($backend:ident $(, $more:ident)*) => {
        conformance!($backend:
            appending_to_a_new_stream_numbers_it_from_one,
            expected_version_any_no_stream_and_exact_are_enforced,
            a_version_conflict_in_one_stream_writes_nothing_in_any,
            a_retried_append_returns_the_first_outcome_even_after_reopening,
            reusing_an_event_id_for_other_content_is_an_error,
            malformed_appends_are_rejected,
            streams_and_the_whole_log_read_back_in_order,
            metadata_and_payload_come_back_byte_for_byte,
            concurrent_writers_never_show_a_reader_a_gap_or_a_step_back,
            stores_taking_turns_on_one_log_decide_from_each_others_appends,
            a_catch_up_subscription_turns_live_without_missing_events,
            verify_accepts_an_intact_log,
            $($more,)*
        );
    };
}

macro_rules! every_backend {
    ($($backend:ident),+) => {
        $(
            portable!($backend,
                // These tamper with the log through SQL.
                verify_finds_an_edited_row,
                verify_finds_a_deleted_row,
                verify_finds_reordered_rows,
                verify_finds_a_cut_tail
            );
        )+
    };
}

every_backend!(sqlite, postgres);
// No SQL to tamper with: KurrentDB runs the portable suite.
#[cfg(feature = "kurrentdb")]
portable!(kurrentdb);
