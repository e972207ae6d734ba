//! The allow-lists: every global, method and static of the language, as data.
//!
//! The parser checks written names against these tables before anything runs, and the
//! interpreter dispatches on the same enums, so a name is either in both or in neither.

/// Declares a name enum with `ALL`, `name()` and `from_name()`.
macro_rules! names {
    ($(#[$meta:meta])* pub(crate) enum $Name:ident { $($(#[$vmeta:meta])* $Variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub(crate) enum $Name {
            $($(#[$vmeta])* $Variant,)*
        }

        impl $Name {
            /// Every member, in table order.
            pub(crate) const ALL: &'static [$Name] = &[$($Name::$Variant,)*];

            /// The name as written in an expression.
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $($Name::$Variant => $text,)*
                }
            }

            /// The member written `name`, if the table has it.
            #[allow(clippy::should_implement_trait)]
            pub(crate) fn from_name(name: &str) -> Option<$Name> {
                match name {
                    $($text => Some($Name::$Variant),)*
                    _ => None,
                }
            }
        }
    };
}

names! {
    /// The names an expression can use without a context providing them.
    pub(crate) enum Global {
        /// `Math`, a namespace of numeric functions and constants.
        Math = "Math",
        /// `JSON`: parse and stringify.
        Json = "JSON",
        /// `Object`: keys, values, entries, fromEntries, groupBy, hasOwn, is.
        Object = "Object",
        /// `Array`: isArray, from, of.
        Array = "Array",
        /// `Number`, callable, with statics and constants.
        Number = "Number",
        /// `String`, callable, with fromCharCode and fromCodePoint.
        String = "String",
        /// `Boolean`, callable.
        Boolean = "Boolean",
        /// `Date`: parse and UTC only; never constructed.
        Date = "Date",
        /// `parseInt(text, radix)`.
        ParseInt = "parseInt",
        /// `parseFloat(text)`.
        ParseFloat = "parseFloat",
        /// `isNaN(value)`, coercing.
        IsNaN = "isNaN",
        /// `isFinite(value)`, coercing.
        IsFinite = "isFinite",
        /// `encodeURIComponent(text)`.
        EncodeUriComponent = "encodeURIComponent",
        /// `decodeURIComponent(text)`.
        DecodeUriComponent = "decodeURIComponent",
        /// The constant `undefined`.
        Undefined = "undefined",
        /// The constant `NaN`.
        NaN = "NaN",
        /// The constant `Infinity`.
        Infinity = "Infinity",
    }
}

impl Global {
    /// Whether the global may be called bare, as `Number(x)`.
    pub(crate) fn is_callable(self) -> bool {
        matches!(
            self,
            Global::Number
                | Global::String
                | Global::Boolean
                | Global::ParseInt
                | Global::ParseFloat
                | Global::IsNaN
                | Global::IsFinite
                | Global::EncodeUriComponent
                | Global::DecodeUriComponent
        )
    }

    /// Whether the global may stand where a callback goes (`rows.filter(Boolean)`): it is
    /// called with the item alone, which gives JavaScript's answer only for one-argument
    /// functions, so `parseInt` is not among them.
    pub(crate) fn is_callback(self) -> bool {
        self.is_callable() && self != Global::ParseInt
    }

    /// What `typeof` answers for the global.
    pub(crate) fn type_of(self) -> &'static str {
        match self {
            Global::Math | Global::Json => "object",
            Global::Undefined => "undefined",
            Global::NaN | Global::Infinity => "number",
            _ => "function",
        }
    }
}

names! {
    /// The methods of arrays.
    pub(crate) enum ArrayMethod {
        /// `map(cb)`.
        Map = "map",
        /// `filter(cb)`.
        Filter = "filter",
        /// `reduce(cb, init?)`.
        Reduce = "reduce",
        /// `reduceRight(cb, init?)`.
        ReduceRight = "reduceRight",
        /// `find(cb)`.
        Find = "find",
        /// `findIndex(cb)`.
        FindIndex = "findIndex",
        /// `findLast(cb)`.
        FindLast = "findLast",
        /// `findLastIndex(cb)`.
        FindLastIndex = "findLastIndex",
        /// `some(cb)`.
        Some = "some",
        /// `every(cb)`.
        Every = "every",
        /// `slice(start?, end?)`.
        Slice = "slice",
        /// `concat(...items)`.
        Concat = "concat",
        /// `join(separator?)`.
        Join = "join",
        /// `includes(value, from?)`.
        Includes = "includes",
        /// `indexOf(value, from?)`.
        IndexOf = "indexOf",
        /// `lastIndexOf(value, from?)`.
        LastIndexOf = "lastIndexOf",
        /// `at(index)`.
        At = "at",
        /// `flat(depth?)`.
        Flat = "flat",
        /// `flatMap(cb)`.
        FlatMap = "flatMap",
        /// `toSorted(compare?)`.
        ToSorted = "toSorted",
        /// `toReversed()`.
        ToReversed = "toReversed",
        /// `toSpliced(start, deleteCount?, ...items)`.
        ToSpliced = "toSpliced",
        /// `with(index, value)`.
        With = "with",
        /// `toString()`.
        ToString = "toString",
        /// `toLocaleString(locales?, options?)`.
        ToLocaleString = "toLocaleString",
        /// `valueOf()`.
        ValueOf = "valueOf",
    }
}

impl ArrayMethod {
    /// Which argument holds the method's callback, if it takes one.
    pub(crate) fn callback_argument(self) -> Option<usize> {
        use ArrayMethod::*;
        match self {
            Map | Filter | Reduce | ReduceRight | Find | FindIndex | FindLast | FindLastIndex | Some | Every
            | FlatMap | ToSorted => Option::Some(0),
            _ => None,
        }
    }
}

names! {
    /// The methods of strings.
    pub(crate) enum StringMethod {
        /// `at(index)`.
        At = "at",
        /// `charAt(index)`.
        CharAt = "charAt",
        /// `charCodeAt(index)`.
        CharCodeAt = "charCodeAt",
        /// `codePointAt(index)`.
        CodePointAt = "codePointAt",
        /// `startsWith(text, position?)`.
        StartsWith = "startsWith",
        /// `endsWith(text, length?)`.
        EndsWith = "endsWith",
        /// `includes(text, position?)`.
        Includes = "includes",
        /// `indexOf(text, position?)`.
        IndexOf = "indexOf",
        /// `lastIndexOf(text, position?)`.
        LastIndexOf = "lastIndexOf",
        /// `slice(start?, end?)`.
        Slice = "slice",
        /// `substring(start, end?)`.
        Substring = "substring",
        /// `concat(...texts)`.
        Concat = "concat",
        /// `split(separator?, limit?)`, with a string separator only.
        Split = "split",
        /// `replace(pattern, replacement)`, with a string pattern only.
        Replace = "replace",
        /// `replaceAll(pattern, replacement)`, with a string pattern only.
        ReplaceAll = "replaceAll",
        /// `repeat(count)`.
        Repeat = "repeat",
        /// `padStart(length, filler?)`.
        PadStart = "padStart",
        /// `padEnd(length, filler?)`.
        PadEnd = "padEnd",
        /// `toLowerCase()`.
        ToLowerCase = "toLowerCase",
        /// `toUpperCase()`.
        ToUpperCase = "toUpperCase",
        /// `toLocaleLowerCase(locales?)`.
        ToLocaleLowerCase = "toLocaleLowerCase",
        /// `toLocaleUpperCase(locales?)`.
        ToLocaleUpperCase = "toLocaleUpperCase",
        /// `trim()`.
        Trim = "trim",
        /// `trimStart()`.
        TrimStart = "trimStart",
        /// `trimEnd()`.
        TrimEnd = "trimEnd",
        /// `normalize(form?)`.
        Normalize = "normalize",
        /// `isWellFormed()`.
        IsWellFormed = "isWellFormed",
        /// `toWellFormed()`.
        ToWellFormed = "toWellFormed",
        /// `localeCompare(other, locales?, options?)`.
        LocaleCompare = "localeCompare",
        /// `toString()`.
        ToString = "toString",
        /// `toLocaleString()`: the string itself.
        ToLocaleString = "toLocaleString",
        /// `valueOf()`.
        ValueOf = "valueOf",
    }
}

names! {
    /// The methods of numbers.
    pub(crate) enum NumberMethod {
        /// `toFixed(digits?)`.
        ToFixed = "toFixed",
        /// `toExponential(digits?)`.
        ToExponential = "toExponential",
        /// `toPrecision(precision?)`.
        ToPrecision = "toPrecision",
        /// `toString(radix?)`.
        ToString = "toString",
        /// `toLocaleString(locales?, options?)`.
        ToLocaleString = "toLocaleString",
        /// `valueOf()`.
        ValueOf = "valueOf",
    }
}

names! {
    /// The functions of `Math`.
    pub(crate) enum MathFn {
        /// `Math.abs`.
        Abs = "abs",
        /// `Math.ceil`.
        Ceil = "ceil",
        /// `Math.floor`.
        Floor = "floor",
        /// `Math.round`.
        Round = "round",
        /// `Math.trunc`.
        Trunc = "trunc",
        /// `Math.sign`.
        Sign = "sign",
        /// `Math.sqrt`.
        Sqrt = "sqrt",
        /// `Math.cbrt`.
        Cbrt = "cbrt",
        /// `Math.pow`.
        Pow = "pow",
        /// `Math.min`.
        Min = "min",
        /// `Math.max`.
        Max = "max",
        /// `Math.hypot`.
        Hypot = "hypot",
        /// `Math.log`.
        Log = "log",
        /// `Math.log2`.
        Log2 = "log2",
        /// `Math.log10`.
        Log10 = "log10",
        /// `Math.log1p`.
        Log1p = "log1p",
        /// `Math.exp`.
        Exp = "exp",
        /// `Math.expm1`.
        Expm1 = "expm1",
        /// `Math.sin`.
        Sin = "sin",
        /// `Math.cos`.
        Cos = "cos",
        /// `Math.tan`.
        Tan = "tan",
        /// `Math.asin`.
        Asin = "asin",
        /// `Math.acos`.
        Acos = "acos",
        /// `Math.atan`.
        Atan = "atan",
        /// `Math.atan2`.
        Atan2 = "atan2",
        /// `Math.sinh`.
        Sinh = "sinh",
        /// `Math.cosh`.
        Cosh = "cosh",
        /// `Math.tanh`.
        Tanh = "tanh",
        /// `Math.asinh`.
        Asinh = "asinh",
        /// `Math.acosh`.
        Acosh = "acosh",
        /// `Math.atanh`.
        Atanh = "atanh",
        /// `Math.fround`.
        Fround = "fround",
        /// `Math.f16round`.
        F16round = "f16round",
        /// `Math.clz32`.
        Clz32 = "clz32",
        /// `Math.imul`.
        Imul = "imul",
        /// `Math.sumPrecise`.
        SumPrecise = "sumPrecise",
    }
}

names! {
    /// The constants of `Math`.
    pub(crate) enum MathConstant {
        /// π.
        Pi = "PI",
        /// e.
        E = "E",
        /// ln 2.
        Ln2 = "LN2",
        /// ln 10.
        Ln10 = "LN10",
        /// log₂ e.
        Log2e = "LOG2E",
        /// log₁₀ e.
        Log10e = "LOG10E",
        /// √½.
        Sqrt1_2 = "SQRT1_2",
        /// √2.
        Sqrt2 = "SQRT2",
    }
}

impl MathConstant {
    /// The constant's value.
    pub(crate) fn value(self) -> f64 {
        use std::f64::consts;
        match self {
            MathConstant::Pi => consts::PI,
            MathConstant::E => consts::E,
            MathConstant::Ln2 => consts::LN_2,
            MathConstant::Ln10 => consts::LN_10,
            MathConstant::Log2e => consts::LOG2_E,
            MathConstant::Log10e => consts::LOG10_E,
            MathConstant::Sqrt1_2 => consts::FRAC_1_SQRT_2,
            MathConstant::Sqrt2 => consts::SQRT_2,
        }
    }
}

names! {
    /// The constants of `Number`.
    pub(crate) enum NumberConstant {
        /// 2⁵³ − 1.
        MaxSafeInteger = "MAX_SAFE_INTEGER",
        /// −(2⁵³ − 1).
        MinSafeInteger = "MIN_SAFE_INTEGER",
        /// The largest finite double.
        MaxValue = "MAX_VALUE",
        /// The smallest positive double.
        MinValue = "MIN_VALUE",
        /// 2⁻⁵².
        Epsilon = "EPSILON",
        /// +∞.
        PositiveInfinity = "POSITIVE_INFINITY",
        /// −∞.
        NegativeInfinity = "NEGATIVE_INFINITY",
        /// NaN.
        NaN = "NaN",
    }
}

impl NumberConstant {
    /// The constant's value.
    pub(crate) fn value(self) -> f64 {
        match self {
            NumberConstant::MaxSafeInteger => 9007199254740991.0,
            NumberConstant::MinSafeInteger => -9007199254740991.0,
            NumberConstant::MaxValue => f64::MAX,
            NumberConstant::MinValue => 5e-324,
            NumberConstant::Epsilon => f64::EPSILON,
            NumberConstant::PositiveInfinity => f64::INFINITY,
            NumberConstant::NegativeInfinity => f64::NEG_INFINITY,
            NumberConstant::NaN => f64::NAN,
        }
    }
}

names! {
    /// The functions of `JSON`.
    pub(crate) enum JsonFn {
        /// `JSON.parse(text)`, without a reviver.
        Parse = "parse",
        /// `JSON.stringify(value, null?, indent?)`.
        Stringify = "stringify",
    }
}

names! {
    /// The functions of `Object`.
    pub(crate) enum ObjectFn {
        /// `Object.keys`.
        Keys = "keys",
        /// `Object.values`.
        Values = "values",
        /// `Object.entries`.
        Entries = "entries",
        /// `Object.fromEntries`.
        FromEntries = "fromEntries",
        /// `Object.groupBy(items, cb)`.
        GroupBy = "groupBy",
        /// `Object.hasOwn`.
        HasOwn = "hasOwn",
        /// `Object.is`.
        Is = "is",
    }
}

names! {
    /// The functions of `Array`.
    pub(crate) enum ArrayFn {
        /// `Array.isArray`.
        IsArray = "isArray",
        /// `Array.from(source, mapper?)`.
        From = "from",
        /// `Array.of`.
        Of = "of",
    }
}

names! {
    /// The functions of `Number`.
    pub(crate) enum NumberFn {
        /// `Number.isInteger`.
        IsInteger = "isInteger",
        /// `Number.isFinite`, not coercing.
        IsFinite = "isFinite",
        /// `Number.isNaN`, not coercing.
        IsNaN = "isNaN",
        /// `Number.isSafeInteger`.
        IsSafeInteger = "isSafeInteger",
        /// `Number.parseInt`, the same function as `parseInt`.
        ParseInt = "parseInt",
        /// `Number.parseFloat`, the same function as `parseFloat`.
        ParseFloat = "parseFloat",
    }
}

names! {
    /// The functions of `String`.
    pub(crate) enum StringFn {
        /// `String.fromCharCode`.
        FromCharCode = "fromCharCode",
        /// `String.fromCodePoint`.
        FromCodePoint = "fromCodePoint",
    }
}

names! {
    /// The functions of `Date`.
    pub(crate) enum DateFn {
        /// `Date.parse(text)`: milliseconds since the epoch, or NaN.
        Parse = "parse",
        /// `Date.UTC(year, month?, …)`.
        Utc = "UTC",
    }
}

/// A function of a namespace global: `Math.max`, `JSON.parse`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Static {
    /// A `Math` function.
    Math(MathFn),
    /// A `JSON` function.
    Json(JsonFn),
    /// An `Object` function.
    Object(ObjectFn),
    /// An `Array` function.
    Array(ArrayFn),
    /// A `Number` function.
    Number(NumberFn),
    /// A `String` function.
    String(StringFn),
    /// A `Date` function.
    Date(DateFn),
}

impl Static {
    /// The function `name` of namespace `global`, if the language has it.
    pub(crate) fn lookup(global: Global, name: &str) -> Option<Static> {
        match global {
            Global::Math => MathFn::from_name(name).map(Static::Math),
            Global::Json => JsonFn::from_name(name).map(Static::Json),
            Global::Object => ObjectFn::from_name(name).map(Static::Object),
            Global::Array => ArrayFn::from_name(name).map(Static::Array),
            Global::Number => NumberFn::from_name(name).map(Static::Number),
            Global::String => StringFn::from_name(name).map(Static::String),
            Global::Date => DateFn::from_name(name).map(Static::Date),
            _ => None,
        }
    }

    /// Which argument holds the function's callback, if it takes one.
    pub(crate) fn callback_argument(self) -> Option<usize> {
        match self {
            Static::Array(ArrayFn::From) | Static::Object(ObjectFn::GroupBy) => Some(1),
            _ => None,
        }
    }

    /// The names of `global`'s functions, for messages.
    pub(crate) fn names_of(global: Global) -> Vec<&'static str> {
        match global {
            Global::Math => MathFn::ALL.iter().map(|f| f.name()).collect(),
            Global::Json => JsonFn::ALL.iter().map(|f| f.name()).collect(),
            Global::Object => ObjectFn::ALL.iter().map(|f| f.name()).collect(),
            Global::Array => ArrayFn::ALL.iter().map(|f| f.name()).collect(),
            Global::Number => NumberFn::ALL.iter().map(|f| f.name()).collect(),
            Global::String => StringFn::ALL.iter().map(|f| f.name()).collect(),
            Global::Date => DateFn::ALL.iter().map(|f| f.name()).collect(),
            _ => Vec::new(),
        }
    }
}

/// Whether `name` is a method of arrays, strings or numbers, or a static of any namespace:
/// what the parser accepts as a written method name before knowing the receiver's type.
pub(crate) fn is_method_name(name: &str) -> bool {
    ArrayMethod::from_name(name).is_some()
        || StringMethod::from_name(name).is_some()
        || NumberMethod::from_name(name).is_some()
        || [
            Global::Math,
            Global::Json,
            Global::Object,
            Global::Array,
            Global::Number,
            Global::String,
            Global::Date,
        ]
        .into_iter()
        .any(|global| Static::lookup(global, name).is_some())
}
