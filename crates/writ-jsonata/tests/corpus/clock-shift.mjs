// Preloaded (node --import) into a third oracle run by gen.mjs: the clock stands at a fixed
// moment years away from now, so that any case whose answer depends on today's date (a
// $toMillis picture without a year, say) answers differently and is refused.
const FIXED = Date.UTC(2037, 6, 15, 13, 45, 30, 250);
const RealDate = Date;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(FIXED);
    else super(...args);
  }
  static now() {
    return FIXED;
  }
}
globalThis.Date = ShiftedDate;
