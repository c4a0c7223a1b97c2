//! The document as typed fields borrowed from its text: the fast way in.
//!
//! Only a document of the expected shape deserialises: objects where objects are
//! expected (never an array in their place), strings where strings are, no
//! unknown field, no key given twice, no `null` but for `via_convoy`. Anything
//! else fails here, and the document is read again as a `serde_json::Value`,
//! whose reader names the defect (`read.rs`). So a document read here is one the
//! `Value` reader accepts, field for field.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

/// A string of the document, borrowed from the text unless it has escapes.
pub struct Str<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for Text<'a> {
            type Value = Str<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Str<'a>, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str<'a>, E> {
                Ok(Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Str<'a>, E> {
                Ok(Str(Cow::Owned(v)))
            }
        }
        d.deserialize_str(Text(PhantomData))
    }
}

/// `T` read only from a JSON object (a derived struct would also take an array).
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Fields<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Object)
            }
        }
        d.deserialize_map(Fields(PhantomData))
    }
}

/// A JSON list, room for a few items made at once.
pub struct List<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Items<T> {
            type Value = List<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<List<T>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(8).min(64));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(List(items))
            }
        }
        d.deserialize_seq(Items(PhantomData))
    }
}

/// `{"FRANCE": [...], ...}`: the lists in the order of their keys, which is the
/// order the `Value` reader takes them in.
pub struct PerPower<'a, T>(pub Vec<(Str<'a>, List<T>)>);

impl<'de: 'a, 'a, T: Deserialize<'de>> Deserialize<'de> for PerPower<'a, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Lists<'a, T>(PhantomData<(&'a (), T)>);
        impl<'de: 'a, 'a, T: Deserialize<'de>> Visitor<'de> for Lists<'a, T> {
            type Value = PerPower<'a, T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of lists")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut lists: Vec<(Str<'a>, List<T>)> = Vec::with_capacity(8);
                while let Some(entry) = map.next_entry::<Str<'a>, List<T>>()? {
                    lists.push(entry);
                }
                // Sorted by key, as a `serde_json::Value` object iterates; a key
                // given twice (the `Value` keeps the last) is left to that reader.
                lists.sort_by(|a, b| a.0.0.cmp(&b.0.0));
                if lists.windows(2).any(|w| w[0].0.0 == w[1].0.0) {
                    return Err(de::Error::custom("a key given twice"));
                }
                Ok(PerPower(lists))
            }
        }
        d.deserialize_map(Lists(PhantomData))
    }
}

/// A field that may be left out but is never `null`.
fn given<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fields<'a> {
    #[serde(borrow, default, deserialize_with = "given")]
    variant: Option<Str<'a>>,
    #[serde(borrow, default, deserialize_with = "given")]
    phase: Option<Str<'a>>,
    #[serde(borrow, default, deserialize_with = "given")]
    units: Option<PerPower<'a, Str<'a>>>,
    #[serde(borrow, default, deserialize_with = "given")]
    supply_centers: Option<PerPower<'a, Str<'a>>>,
    #[serde(borrow, default, deserialize_with = "given")]
    home_centers: Option<PerPower<'a, Str<'a>>>,
    #[serde(borrow, default, deserialize_with = "given")]
    dislodged: Option<PerPower<'a, DislodgedDoc<'a>>>,
    #[serde(borrow, default, deserialize_with = "given")]
    contested: Option<Vec<Str<'a>>>,
    #[serde(borrow, default, deserialize_with = "given")]
    orders: Option<PerPower<'a, Str<'a>>>,
}

/// A whole document.
pub struct Doc<'a> {
    pub variant: Option<Str<'a>>,
    pub phase: Option<Str<'a>>,
    pub units: Option<PerPower<'a, Str<'a>>>,
    pub supply_centers: Option<PerPower<'a, Str<'a>>>,
    pub home_centers: Option<PerPower<'a, Str<'a>>>,
    pub dislodged: Option<PerPower<'a, DislodgedDoc<'a>>>,
    pub contested: Option<Vec<Str<'a>>>,
    pub orders: Option<PerPower<'a, Str<'a>>>,
}

impl<'a> Doc<'a> {
    /// The document of `text`, if it has the expected shape.
    pub fn parse(text: &'a str) -> Option<Doc<'a>> {
        let Object(f) = serde_json::from_str::<Object<Fields<'a>>>(text).ok()?;
        Some(Doc {
            variant: f.variant,
            phase: f.phase,
            units: f.units,
            supply_centers: f.supply_centers,
            home_centers: f.home_centers,
            dislodged: f.dislodged,
            contested: f.contested,
            orders: f.orders,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DislodgedFields<'a> {
    #[serde(borrow)]
    unit: Str<'a>,
    #[serde(borrow)]
    attacker_from: Str<'a>,
    #[serde(default)]
    via_convoy: Option<bool>,
}

/// `{"unit": "A MUN", "attacker_from": "BUR", "via_convoy": false}`
pub struct DislodgedDoc<'a> {
    pub unit: Str<'a>,
    pub attacker_from: Str<'a>,
    pub via_convoy: bool,
}

impl<'de: 'a, 'a> Deserialize<'de> for DislodgedDoc<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Object(f) = Object::<DislodgedFields<'a>>::deserialize(d)?;
        Ok(DislodgedDoc {
            unit: f.unit,
            attacker_from: f.attacker_from,
            via_convoy: f.via_convoy.unwrap_or(false),
        })
    }
}
