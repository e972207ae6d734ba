// Helpers for the corpus generators: each topic module builds its cases with `topic()`.
//
// A case is {id, expr, data}. Ids are `<prefix>-<group>-<n>`, numbered within a group, so a
// case added at the end of a group keeps every other id stable.

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Keys of `data` that `expr` may read: those written as a name that is not a property after a
// dot. Over-inclusion is harmless; a missing key shows up as unknown-reference in the oracle.
function reads(expr, data) {
  const picked = {};
  for (const [key, value] of Object.entries(data)) {
    // A name not after a lone dot (a property), but after a spread's three dots.
    const pattern = new RegExp(`(?<![\\w$])(?<!(?:^|[^.])\\.)${key.replace(/\$/g, '\\$')}(?![\\w$])`);
    if (pattern.test(expr)) picked[key] = value;
  }
  return picked;
}

// Starts a topic. `shared` is data every group may read (only the keys an expression names are
// written into its line).
export function topic(prefix, shared = {}) {
  const cases = [];
  const groups = new Set();
  return {
    cases,
    // Adds a group of cases. Each item is an expression, or [expression, data] where the data's
    // keys are all kept. `data` is group-wide data, filtered like `shared`.
    g(group, items, data = {}) {
      if (groups.has(group)) throw new Error(`${prefix}: group ${group} declared twice`);
      groups.add(group);
      let n = 0;
      for (const item of items) {
        n += 1;
        const [expr, own] = typeof item === 'string' ? [item, undefined] : item;
        if (typeof expr !== 'string') throw new Error(`${prefix}-${group}-${n}: no expression`);
        const picked = { ...reads(expr, { ...shared, ...data }), ...(own ?? {}) };
        for (const key of Object.keys(picked)) {
          if (!IDENT.test(key)) throw new Error(`${prefix}-${group}-${n}: data key ${key} is not an identifier`);
        }
        const entry = { id: `${prefix}-${group}-${n}`, expr };
        if (Object.keys(picked).length > 0) entry.data = picked;
        cases.push(entry);
      }
    },
  };
}
