//! Unit tests of the strict vector reader in `tests/common/vectors.rs`: it accepts the shapes
//! of the upstream files and rejects, naming `file:line`, what it must.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use common::vectors::{Record, Split, decode_hex, parse};

/// The panic message of `f`, which must panic.
fn panic_of(f: impl FnOnce()) -> String {
    let e = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = e.downcast_ref::<&str>() {
        s.to_string()
    } else {
        panic!("non-string panic payload")
    }
}

fn one(text: &str) -> Record {
    let v = parse("t.rsp", text, Split::BlankLine).unwrap();
    assert_eq!(v.len(), 1);
    v.into_iter().next().unwrap()
}

fn parse_err(text: &str, split: Split) -> String {
    parse("t.rsp", text, split).expect_err("expected a syntax error")
}

#[test]
fn reads_cavp_shape_with_crlf_sections_and_comments() {
    let text = "#  CAVS 11.0\r\n#  comment\r\n\r\n[L = 32]\r\n\r\nLen = 0\r\nMsg = 00\r\nMD = aB01\r\n\r\nLen = 8\r\n# a comment inside a record\r\nMsg = d3\r\nMD = \r\n";
    let v = parse("t.rsp", text, Split::BlankLine).unwrap();
    assert_eq!(v.len(), 2);
    let mut it = v.into_iter();
    let mut r = it.next().unwrap();
    assert_eq!(r.line(), 6);
    assert_eq!(r.at().to_string(), "t.rsp:6");
    assert_eq!(r.section_usize("L"), 32);
    assert_eq!(r.section("L"), "32"); // section attributes may be read again
    assert_eq!(r.take_usize("Len"), 0);
    assert_eq!(r.take_hex("Msg"), [0]);
    assert_eq!(r.take_hex("MD"), [0xab, 0x01]);
    r.finish();
    let mut r = it.next().unwrap();
    assert_eq!(r.line(), 10);
    assert_eq!(r.section_usize("L"), 32);
    assert_eq!(r.take_str("Len"), "8");
    assert_eq!(r.take_hex("Msg"), [0xd3]);
    assert_eq!(r.take_hex("MD"), Vec::<u8>::new()); // empty value, as in `salt =`
    r.finish();
}

#[test]
fn header_groups_accumulate_then_replace() {
    let text = "[Keylen = 128]\n[IVlen = 96]\n\nA = 1\n\n[ENCRYPT]\n\nB = 2\nFAIL\n";
    let mut it = parse("t.rsp", text, Split::BlankLine).unwrap().into_iter();
    let mut r = it.next().unwrap();
    assert_eq!(r.section_usize("Keylen"), 128);
    assert_eq!(r.section_usize("IVlen"), 96);
    assert!(!r.section_flag("ENCRYPT"));
    assert_eq!(r.take_usize("A"), 1);
    assert!(!r.take_flag("FAIL"));
    r.finish();
    let mut r = it.next().unwrap();
    assert!(r.section_flag("ENCRYPT"));
    assert_eq!(r.take_usize("B"), 2);
    assert!(r.take_flag("FAIL"));
    // The new group replaced the old one.
    let e = panic_of(|| {
        r.section("Keylen");
    });
    assert!(e.contains("t.rsp:8: no section attribute [Keylen"), "{e}");
}

#[test]
fn at_key_split_allows_blank_lines_inside_records() {
    // The RFC 5869 files put a blank line between `L` and `PRK`.
    let text = "# A.1\n\nCOUNT = 1\n\nHash = SHA-256\nL    = 42\n\nPRK  = 00ff\n\n# A.2\nCOUNT = 2\nHash = SHA-1\n";
    let v = parse("t.txt", text, Split::AtKey("COUNT")).unwrap();
    assert_eq!(v.len(), 2);
    let mut it = v.into_iter();
    let mut r = it.next().unwrap();
    assert_eq!(r.take_usize("COUNT"), 1);
    assert_eq!(r.take_str("Hash"), "SHA-256");
    assert_eq!(r.take_usize("L"), 42);
    assert_eq!(r.take_hex("PRK"), [0, 255]);
    r.finish();
    let mut r = it.next().unwrap();
    assert_eq!(r.line(), 11);
    assert_eq!(r.take_usize("COUNT"), 2);
    assert_eq!(r.take_str("Hash"), "SHA-1");
    r.finish();

    // The same text split at blank lines is four records: the split matters. (They are only
    // counted: `forget` skips their drop check, which would rightly fire.)
    let v = parse("t.txt", text, Split::BlankLine).unwrap();
    assert_eq!(v.len(), 4);
    std::mem::forget(v);
}

#[test]
fn finish_rejects_unknown_fields() {
    let mut r = one("Len = 8\nMsg = d3\nMD = 00\n");
    r.take_usize("Len");
    r.take_hex("Msg");
    let e = panic_of(move || r.finish());
    assert!(
        e.contains("t.rsp:1: unknown/unused field(s): \"MD\" (line 3)"),
        "{e}"
    );
}

#[test]
fn finish_rejects_unread_section_attributes() {
    let mut r = one("[L = 20]\n\nMD = 00\n");
    r.take_hex("MD");
    let e = panic_of(move || r.finish());
    assert!(e.contains("\"L\" (line 1)"), "{e}");
}

#[test]
fn dropping_an_unfinished_record_panics() {
    let r = one("MD = 00\n");
    let e = panic_of(move || drop(r));
    assert!(
        e.contains("t.rsp:1: record dropped without finish()"),
        "{e}"
    );
}

#[test]
fn missing_and_twice_taken_fields_are_errors() {
    let mut r = one("MD = 00\n");
    let e = panic_of(|| {
        r.take_hex("Msg");
    });
    assert!(e.contains("t.rsp:1: missing field \"Msg\""), "{e}");
    let mut r = one("\n\nMD = 00\n");
    r.take_hex("MD");
    let e = panic_of(|| {
        r.take_hex("MD");
    });
    assert!(e.contains("t.rsp:3: field \"MD\" taken twice"), "{e}");
}

#[test]
fn bad_hex_is_an_error_with_its_line() {
    for (val, want) in [
        ("abc", "odd number of hex digits (3)"),
        ("0g", "bad hex digit 'g' at offset 1"),
        ("00 112", "bad hex digit ' ' at offset 2"),
        ("0x00", "bad hex digit 'x' at offset 1"),
    ] {
        let mut r = one(&format!("Len = 0\nMsg = {val}\n"));
        r.take_usize("Len");
        let e = panic_of(|| {
            r.take_hex("Msg");
        });
        assert!(e.contains(&format!("t.rsp:2: Msg: {want}")), "{val}: {e}");
    }
    assert_eq!(decode_hex("").unwrap(), Vec::<u8>::new());
    assert_eq!(decode_hex("00fFA0").unwrap(), [0x00, 0xff, 0xa0]);
}

/// `take_bytes`: hex or a quoted ASCII string (the BoringSSL ChaCha20-Poly1305 file's
/// `KEY= ...`, `IN= "..."`, `CT= ""`), nothing else.
#[test]
fn take_bytes_reads_hex_and_quoted_strings() {
    let mut r = one("KEY= 00ff\nIN= \"a = b: '99.\"\nCT= \"\"\nAD=\n");
    assert_eq!(r.take_bytes("KEY"), [0x00, 0xff]);
    assert_eq!(r.take_bytes("IN"), b"a = b: '99.");
    assert_eq!(r.take_bytes("CT"), Vec::<u8>::new());
    assert_eq!(r.take_bytes("AD"), Vec::<u8>::new());
    r.finish();
    for val in ["\"abc", "\"a\"b\"", "\"a\\nb\"", "\"\u{e9}\"", "\""] {
        let mut r = one(&format!("IN= {val}\n"));
        let e = panic_of(|| {
            r.take_bytes("IN");
        });
        assert!(
            e.contains("t.rsp:1: IN: malformed quoted string"),
            "{val:?}: {e}"
        );
    }
    let mut r = one("IN= abc\n");
    let e = panic_of(|| {
        r.take_bytes("IN");
    });
    assert!(e.contains("t.rsp:1: IN: odd number of hex digits"), "{e}");
}

#[test]
fn bad_numbers_are_errors() {
    for val in [
        "",
        "-1",
        "+1",
        "1.0",
        "0x10",
        "12a",
        "99999999999999999999999",
    ] {
        let mut r = one(&format!("Len = {val}\n"));
        let e = panic_of(|| {
            r.take_usize("Len");
        });
        assert!(e.contains("t.rsp:1: Len:"), "{val:?}: {e}");
    }
    let mut r = one("[L = x]\n\nA = 1\n");
    let e = panic_of(|| {
        r.section_usize("L");
    });
    assert!(e.contains("t.rsp:1: [L]: not a decimal number"), "{e}");
}

#[test]
fn flags_and_values_are_not_interchangeable() {
    let mut r = one("FAIL\nPT = 00\n");
    let e = panic_of(|| {
        r.take_hex("FAIL");
    });
    assert!(e.contains("t.rsp:1: \"FAIL\" is a flag"), "{e}");
    let mut r = one("FAIL\nPT = 00\n");
    let e = panic_of(|| {
        r.take_flag("PT");
    });
    assert!(e.contains("t.rsp:2: \"PT\" has a value"), "{e}");
}

#[test]
fn syntax_errors_name_file_and_line() {
    let cases: &[(&str, Split, &str)] = &[
        (
            "Len = 8\nMsg = 00\nLen = 16\n",
            Split::BlankLine,
            "t.rsp:3: duplicate key \"Len\" (first on line 1)",
        ),
        (
            "[L = 20]\n[L = 32]\n\nA = 1\n",
            Split::BlankLine,
            "t.rsp:2: section attribute \"L\" repeats line 1",
        ),
        (
            "A = 1\n[L = 20]\n",
            Split::BlankLine,
            "t.rsp:2: section header inside the record of line 1",
        ),
        (
            "[L = 20\n",
            Split::BlankLine,
            "t.rsp:1: section header without ']'",
        ),
        ("= 00\n", Split::BlankLine, "t.rsp:1: line without a key"),
        (
            "Two words = 00\n",
            Split::BlankLine,
            "t.rsp:1: malformed key",
        ),
        ("Msg 00\n", Split::BlankLine, "t.rsp:1: malformed key"),
        (
            "A = 1\r\rB = 2\n",
            Split::BlankLine,
            "t.rsp:1: stray carriage return",
        ),
        (
            "Hash = SHA-1\nCOUNT = 1\n",
            Split::AtKey("COUNT"),
            "t.rsp:1: field \"Hash\" before the first \"COUNT\"",
        ),
        (
            "COUNT = 1\nA = 1\n\nA = 2\n",
            Split::AtKey("COUNT"),
            "t.rsp:4: duplicate key \"A\" (first on line 2)",
        ),
    ];
    for (text, split, want) in cases {
        let e = parse_err(text, *split);
        assert!(e.contains(want), "{text:?}: got {e:?}, want {want:?}");
    }
}

#[test]
fn a_failed_parse_discards_its_records_quietly() {
    // Records complete before the error must not trip the drop check.
    let e = parse_err("A = 1\n\nB = 2\nB = 3\n", Split::BlankLine);
    assert!(e.contains("t.rsp:4: duplicate key"), "{e}");
}

#[test]
fn read_reports_the_vectors_path() {
    let p = common::vectors::path("sha/SHA1ShortMsg.rsp");
    assert!(p.ends_with("/vectors/sha/SHA1ShortMsg.rsp"), "{p}");
    assert!(std::path::Path::new(&p).is_file(), "{p}");
    let v = common::vectors::read("sha/SHA1ShortMsg.rsp");
    assert_eq!(v.name(), "vectors/sha/SHA1ShortMsg.rsp");
    assert_eq!(v.len(), 65);
    for mut r in v {
        r.section("L");
        r.take_usize("Len");
        r.take_hex("Msg");
        r.take_hex("MD");
        r.finish();
    }
}
