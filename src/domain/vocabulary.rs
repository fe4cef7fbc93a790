//! `vocabulary!`: a closed set of names as an enum (stored, printed and
//! typed the same way). Used by the domain's vocabularies.

/// A closed vocabulary stored as text: the enum, every value in order,
/// its stored name, and `parse` that names the vocabulary when it refuses.
macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident, $what:literal, $plural:literal { $($(#[$vdoc:meta])* $v:ident = $s:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name { $($(#[$vdoc])* $v),+ }

        impl $name {
            /// Every value, in the vocabulary's order.
            #[allow(dead_code, reason = "a vocabulary lists itself whether or not a caller enumerates it")]
            pub const ALL: &'static [$name] = &[$($name::$v),+];

            /// The stored (and printed) name.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$v => $s),+ }
            }

            /// The value a stored or typed name stands for.
            #[allow(dead_code, reason = "a vocabulary only printed is never parsed")]
            pub fn parse(s: &str) -> anyhow::Result<$name> {
                match s {
                    $($s => Ok($name::$v),)+
                    _ => anyhow::bail!(
                        "unknown {} {s:?}; {}: {}",
                        $what,
                        $plural,
                        [$($s),+].join(", ")
                    ),
                }
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({"type": "string", "enum": [$($s),+]})
            }
            fn inline_schema() -> bool {
                true
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
