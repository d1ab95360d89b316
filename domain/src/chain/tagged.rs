//! Reading an internally tagged enum (`{"type": "Variant", ...fields}`) without serde's
//! buffering. serde's derive for `#[serde(tag = "type")]` cannot know where the tag is, so it
//! copies every entry of the object into a buffer first and reads the fields from that: about
//! half of decoding a chain event. Written by serde, the tag is always the first entry; when it
//! is, the rest of the object is read straight into the variant's fields (through its
//! externally tagged twin, `T`). Any other order (a JSON value whose keys were sorted, say) is
//! read the buffered way, with the same result.

use std::{borrow::Cow, fmt, marker::PhantomData};

use serde::{
    Deserialize, Deserializer,
    de::{self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, VariantAccess, Visitor, value::BorrowedStrDeserializer},
    forward_to_deserialize_any,
};
use serde_json::{Map, Value};

/// The name of the tag entry.
const TAG: &str = "type";

/// Reads `{"type": "Variant", ...}` as `T`, an externally tagged enum of the same variants.
pub(super) fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_map(TagFirst(PhantomData))
}

struct TagFirst<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for TagFirst<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object with a \"type\" entry")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let Some(Text(first)) = map.next_key()? else {
            return Err(de::Error::missing_field(TAG));
        };
        if first == TAG {
            let Text(variant) = map.next_value()?;
            return T::deserialize(Rest { variant, map });
        }
        // The tag comes later: every entry, then the variant's fields from them.
        let mut entries = Map::new();
        entries.insert(first.into_owned(), map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            entries.insert(key, value);
        }
        let Some(Value::String(variant)) = entries.remove(TAG) else {
            return Err(de::Error::missing_field(TAG));
        };
        let external = Value::Object(Map::from_iter([(variant, Value::Object(entries))]));
        T::deserialize(external).map_err(de::Error::custom)
    }
}

/// A string, borrowed from the input where it can be (no allocation for a tag or a key).
struct Text<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Of;
        impl<'de> Visitor<'de> for Of {
            type Value = Text<'de>;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a string")
            }

            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(text)))
            }

            fn visit_str<E>(self, text: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text.to_owned())))
            }

            fn visit_string<E>(self, text: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(text)))
            }
        }
        deserializer.deserialize_str(Of)
    }
}

/// The variant's name and the rest of its object, as an externally tagged enum reads them.
struct Rest<'de, A> {
    variant: Cow<'de, str>,
    map: A,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for Rest<'de, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for Rest<'de, A> {
    type Error = A::Error;
    type Variant = Fields<A>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Fields<A>), A::Error> {
        let variant = match self.variant {
            Cow::Borrowed(name) => seed.deserialize(BorrowedStrDeserializer::new(name))?,
            Cow::Owned(name) => seed.deserialize(name.into_deserializer())?,
        };
        Ok((variant, Fields(self.map)))
    }
}

/// The rest of the object: a struct variant's fields.
struct Fields<A>(A);

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Fields<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        Err(de::Error::custom("a chain event has fields"))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, A::Error> {
        Err(de::Error::custom("a chain event has named fields"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("a chain event has named fields"))
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.0)
    }
}
