//! The problems of downstream policies: the checks a kernel author writes
//! next to their kernel, in CK Tile's style ("MPerBlock must be a multiple
//! of MWarp * MPerXdl"), reported through cktile's own [`Error`](crate::Error)
//! so that one `Result` type carries both.

use core::fmt;

/// A kernel author's own check that failed: their message and, when given,
/// the value it is about: [`ErrorKind::Policy`](crate::ErrorKind::Policy),
/// built by [`Error::policy`](crate::Error::policy),
/// [`Error::policy_value`](crate::Error::policy_value) and
/// [`Error::policy_minimum`](crate::Error::policy_minimum).
///
/// It holds `&'static str`s only, so [`Error`](crate::Error) stays `Copy`
/// and the constructors are `const fn`: a policy checked in a `const` item
/// stops the build with its message.
///
/// ```
/// use cktile_core::{Error, ErrorKind};
/// let e = Error::policy_value("MPerBlock must be a multiple of MWarp * MPerXdl (64)", "MPerBlock", 96);
/// let ErrorKind::Policy(problem) = e.kind() else { unreachable!() };
/// assert_eq!(problem.message(), "MPerBlock must be a multiple of MWarp * MPerXdl (64)");
/// assert_eq!(problem.value(), Some(("MPerBlock", 96)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PolicyProblem {
    message: &'static str,
    value: Option<(&'static str, i64)>,
    minimum: Option<i64>,
}

impl PolicyProblem {
    /// A problem with the author's message only.
    ///
    /// ```
    /// let p = cktile_core::PolicyProblem::new("KPack must divide KPerBlock");
    /// assert_eq!(p.to_string(), "KPack must divide KPerBlock");
    /// ```
    pub const fn new(message: &'static str) -> PolicyProblem {
        PolicyProblem { message, value: None, minimum: None }
    }

    /// A problem with the author's message and the value it is about.
    ///
    /// ```
    /// let p = cktile_core::PolicyProblem::with_value("KPack must divide KPerBlock", "KPack", 6);
    /// assert_eq!(p.to_string(), "KPack must divide KPerBlock (KPack = 6)");
    /// ```
    pub const fn with_value(message: &'static str, name: &'static str, value: i64) -> PolicyProblem {
        PolicyProblem { message, value: Some((name, value)), minimum: None }
    }

    /// A problem with the author's message, the value it is about and the
    /// least value that would do (a buffer too short, a stride below its
    /// row).
    ///
    /// ```
    /// let p = cktile_core::PolicyProblem::with_minimum("the LDS must hold both blocks", "lds.len()", 100, 8192);
    /// assert_eq!(p.to_string(), "the LDS must hold both blocks (lds.len() = 100; at least 8192)");
    /// assert_eq!(p.minimum(), Some(8192));
    /// ```
    pub const fn with_minimum(message: &'static str, name: &'static str, value: i64, minimum: i64) -> PolicyProblem {
        PolicyProblem { message, value: Some((name, value)), minimum: Some(minimum) }
    }

    /// The author's message.
    ///
    /// ```
    /// assert_eq!(cktile_core::PolicyProblem::new("bad tile").message(), "bad tile");
    /// ```
    pub const fn message(&self) -> &'static str {
        self.message
    }

    /// The name and value the message is about, when given.
    ///
    /// ```
    /// assert_eq!(cktile_core::PolicyProblem::new("bad tile").value(), None);
    /// assert_eq!(cktile_core::PolicyProblem::with_value("bad tile", "M", 3).value(), Some(("M", 3)));
    /// ```
    pub const fn value(&self) -> Option<(&'static str, i64)> {
        self.value
    }

    /// The least value that would do, when given.
    ///
    /// ```
    /// assert_eq!(cktile_core::PolicyProblem::with_value("bad tile", "M", 3).minimum(), None);
    /// assert_eq!(cktile_core::PolicyProblem::with_minimum("short", "len", 3, 8).minimum(), Some(8));
    /// ```
    pub const fn minimum(&self) -> Option<i64> {
        self.minimum
    }

    /// The fixed sentence for `const` panics: the author's message (the
    /// value is added by the compile-time builders, which can format
    /// numbers).
    ///
    /// ```
    /// assert_eq!(cktile_core::PolicyProblem::with_value("bad tile", "M", 3).summary(), "bad tile");
    /// ```
    pub const fn summary(&self) -> &'static str {
        self.message
    }
}

impl fmt::Display for PolicyProblem {
    /// The author's message, then `(name = value)` when a value was given,
    /// or `(name = value; at least minimum)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)?;
        match (self.value, self.minimum) {
            (Some((name, value)), Some(minimum)) => write!(f, " ({name} = {value}; at least {minimum})"),
            (Some((name, value)), None) => write!(f, " ({name} = {value})"),
            (None, _) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Error, ErrorKind, PolicyProblem};

    #[test]
    fn messages_are_the_authors() {
        let plain = Error::policy("MPerBlock must be a multiple of MWarp * MPerXdl (64)");
        assert_eq!(plain.to_string(), "MPerBlock must be a multiple of MWarp * MPerXdl (64)");
        assert_eq!(plain.summary(), "MPerBlock must be a multiple of MWarp * MPerXdl (64)");
        assert_eq!(
            *plain.kind(),
            ErrorKind::Policy(PolicyProblem::new("MPerBlock must be a multiple of MWarp * MPerXdl (64)"))
        );

        let valued = Error::policy_value("KPack must divide KPerBlock (32)", "KPack", -6);
        assert_eq!(valued.to_string(), "KPack must divide KPerBlock (32) (KPack = -6)");
        assert_eq!(valued.summary(), "KPack must divide KPerBlock (32)");
        assert_eq!(
            *valued.kind(),
            ErrorKind::Policy(PolicyProblem::with_value("KPack must divide KPerBlock (32)", "KPack", -6))
        );
    }

    #[test]
    fn minimums_are_named() {
        let short = Error::policy_minimum("the LDS must hold both blocks", "lds.len()", 100, 8192);
        assert_eq!(short.to_string(), "the LDS must hold both blocks (lds.len() = 100; at least 8192)");
        assert_eq!(short.summary(), "the LDS must hold both blocks");
        let ErrorKind::Policy(problem) = short.kind() else { panic!("{short:?}") };
        assert_eq!((problem.value(), problem.minimum()), (Some(("lds.len()", 100)), Some(8192)));
        // Sizes past i64::MAX are named as i64::MAX, on both sides.
        let huge = Error::policy_minimum("m", "n", usize::MAX, usize::MAX);
        assert_eq!(huge.to_string(), format!("m (n = {0}; at least {0})", i64::MAX));
    }

    #[test]
    fn const_constructors() {
        const E: Error = Error::policy_value("tile", "N", 7);
        const P: PolicyProblem = PolicyProblem::with_value("tile", "N", 7);
        assert_eq!(*E.kind(), ErrorKind::Policy(P));
        assert_eq!((P.message(), P.value()), ("tile", Some(("N", 7))));
    }

    #[cfg(feature = "std")]
    #[test]
    fn static_failure_prints_the_message_and_value() {
        fn message(e: Error) -> String {
            let payload = std::panic::catch_unwind(|| crate::typed::static_failure(&e)).unwrap_err();
            match (payload.downcast_ref::<String>(), payload.downcast_ref::<&str>()) {
                (Some(s), _) => s.clone(),
                (None, Some(s)) => s.to_string(),
                (None, None) => String::from("<no message>"),
            }
        }
        assert_eq!(
            message(Error::policy_value("MPerBlock must be a multiple of 64", "MPerBlock", 96)),
            "MPerBlock must be a multiple of 64 (MPerBlock = 96)"
        );
        assert_eq!(message(Error::policy("KPack must divide KPerBlock")), "KPack must divide KPerBlock");
        // The compile-time message is the run-time one.
        let short = Error::policy_minimum("the LDS must hold both blocks", "lds.len()", 100, 8192);
        assert_eq!(message(short), short.to_string());
        assert_eq!(message(short), "the LDS must hold both blocks (lds.len() = 100; at least 8192)");
    }
}
