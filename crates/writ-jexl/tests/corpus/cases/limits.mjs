// writ's bounds, which jexl-js lacks: each case is valid Jexl that jexl-js evaluates, and a limit
// (writ's names: steps, maxStringLength, maxArrayLength, maxDepth) stops it — or, at the limit
// itself, lets it through. Nesting past the depth limit is refused when the source is parsed (the
// default limit stops 600 nested parentheses).
const nested = (n, open, inner, close) => open.repeat(n) + inner + close.repeat(n);
const BUDGET = { code: 'budget-exceeded' };
export default {
  prefix: 'limit',
  doc: 'users',
  cases: [
    ['steps', 'users[.age > 20 && .active]', { limits: { steps: 5 }, ...BUDGET }],
    ['steps', 'teams[.members[.lead]].length', { limits: { steps: 8 }, ...BUDGET }],
    ['steps', 'users[.age > 20 && .active][0].name', { limits: { steps: 100000 } }],
    ['steps', '1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10', { limits: { steps: 3 }, ...BUDGET }],
    ['array', '[1, 2, 3]', { limits: { maxArrayLength: 3 } }],
    ['array', '[1, 2, 3, 4]', { limits: { maxArrayLength: 3 }, ...BUDGET }],
    ['array', 'users[.age > 0]', { limits: { maxArrayLength: 4 }, ...BUDGET }],
    ['array', 'users[.age > 20]', { limits: { maxArrayLength: 4 } }],
    ['array', 'names|join("")|split("")', { limits: { maxArrayLength: 10 }, transforms: ['join', 'split'], ...BUDGET }],
    ['string', '"ab" + "cd"', { limits: { maxStringLength: 4 } }],
    ['string', '"ab" + "cde"', { limits: { maxStringLength: 4 }, ...BUDGET }],
    ['string', 'names[0] + names[1] + names[2] + names[3]', { limits: { maxStringLength: 10 }, ...BUDGET }],
    ['string', 'names|join(", ")', { limits: { maxStringLength: 16 }, transforms: ['join'], ...BUDGET }],
    ['string', 'users[.name + .name + .name + .name == "x"]', { limits: { maxStringLength: 12 }, ...BUDGET }],
    ['string', 'role|upper', { limits: { maxStringLength: 5 }, transforms: ['upper'] }],
    ['string', '"straße"|upper', { limits: { maxStringLength: 6 }, transforms: ['upper'], ...BUDGET }],
    ['depth', nested(10, '(', 'min', ')'), { limits: { maxDepth: 4 }, ...BUDGET }],
    ['depth', nested(10, '[', '1', ']'), { limits: { maxDepth: 4 }, ...BUDGET }],
    ['depth', nested(10, '!', 'min', ''), { limits: { maxDepth: 4 }, ...BUDGET }],
    ['depth', nested(3, '(', 'min', ')'), { limits: { maxDepth: 100 } }],
    ['depth', nested(600, '(', '1', ')'), BUDGET],
    ['depth', nested(600, '!', 'min', ''), BUDGET],
    ['depth', nested(100, '(', 'min', ')')],
  ],
};
