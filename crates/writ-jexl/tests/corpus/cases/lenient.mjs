// What jexl 2.3's parser accepts that a stricter grammar would refuse: an unclosed `(` at the very
// end, a ternary whose alternative is missing (read only when the test is falsy), empty array
// slots and trailing commas, and `? :` with a space as the shorthand.
export default {
  prefix: 'lenient',
  doc: 'values',
  cases: [
    ['paren', '(1'],
    ['paren', '((one + 2)'],
    ['paren', 'nul ? 1 : (2'],
    // …but only where jexl's parser happens to end the open group itself.
    ['paren', 'one * (two + 3', { code: 'jexl-syntax' }],
    ['ternary', 'true ? 1 :'],
    ['ternary', 'one ? "consequent" :'],
    // The missing alternative fails only when it is reached, as in jexl-js; it is a syntax error.
    ['ternary', 'false ? 1 :', { code: 'jexl-syntax' }],
    ['slots', '[1, , , 2, ]'],
    ['slots', '[,]'],
    ['slots', '{a: 1, b: 2, }'],
    ['shorthand', 'true ?: 5'],
    ['shorthand', 'zero ? : "spaced"'],
  ],
};
