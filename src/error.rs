//! The crate's one error type.

use core::fmt;

/// Everything that can go wrong with input a caller can pass. No function of this crate
/// panics on bad input; it returns one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A key, nonce, tag, buffer or output length is not one the operation accepts.
    InvalidLength,
    /// The message (or associated data) is longer than the algorithm allows.
    MessageTooLong,
    /// A counter would wrap (e.g. more blocks than a stream cipher's counter can number).
    CounterExhausted,
    /// A tag or MAC did not verify. Nothing about where it differed is revealed.
    AuthenticationFailed,
    /// PKCS#7 padding was malformed.
    BadPadding,
    /// A CPU feature name no architecture knows (in [`crate::cpu::Features::without`]).
    UnknownFeature,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "invalid length",
            Error::MessageTooLong => "message too long for the algorithm",
            Error::CounterExhausted => "counter exhausted",
            Error::AuthenticationFailed => "authentication failed",
            Error::BadPadding => "bad padding",
            Error::UnknownFeature => "unknown CPU feature name",
        })
    }
}

/// Always, also without `std` (`core::error::Error` is stable since Rust 1.81).
impl core::error::Error for Error {}
