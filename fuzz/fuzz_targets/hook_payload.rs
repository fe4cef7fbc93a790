//! A hook's stdin, whatever it is: parsed, its harness detected, normalized
//! and redacted; when it is an event, its stored form is JSON again and its
//! key and status target are computed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sessionkit::hooks::receive::{Delivery, event_of};
use sessionkit::hooks::{canonical, event_key};

fuzz_target!(|data: &[u8]| {
    let delivery = Delivery::default();
    if let Ok(Some(ev)) = event_of(data, &delivery, |_| None) {
        let stored = canonical(&ev.payload);
        serde_json::from_str::<serde_json::Value>(&stored).expect("the stored payload is JSON");
        let _ = event_key(&ev, None, None);
        let _ = event_key(&ev, None, Some("1@2"));
        let _ = event_key(&ev, Some("d"), None);
        let _ = ev.target(1_700_000_000_000);
    }
});
