// Realistic expressions over realistic data: orders, invoices, users, event logs, a cart, a
// product catalogue. The filter/map/reduce/template shapes people and models write every day.
import { topic } from './lib.mjs';

const orders = [
  { id: 'o-1001', customer: 'ada@example.com', status: 'paid', total: 129.99, currency: 'USD', items: [{ sku: 'MUG', qty: 2, price: 12.5 }, { sku: 'KETTLE', qty: 1, price: 104.99 }], placedAt: '2024-03-01T09:15:00Z', tags: ['gift'] },
  { id: 'o-1002', customer: 'bob@example.com', status: 'pending', total: 15, currency: 'USD', items: [{ sku: 'BEANS', qty: 3, price: 5 }], placedAt: '2024-03-02T17:40:00Z', tags: [] },
  { id: 'o-1003', customer: 'ada@example.com', status: 'refunded', total: 42.1, currency: 'EUR', items: [{ sku: 'TEA', qty: 1, price: 42.1 }], placedAt: '2024-03-05T08:00:00Z', tags: ['vip', 'gift'], note: null },
  { id: 'o-1004', customer: 'cy@example.com', status: 'paid', total: 0.3, currency: 'USD', items: [{ sku: 'STICKER', qty: 3, price: 0.1 }], placedAt: '2024-02-28T23:59:59Z', tags: ['promo'] },
  { id: 'o-1005', customer: 'dee@example.com', status: 'shipped', total: 250, currency: 'USD', items: [{ sku: 'GRINDER', qty: 1, price: 200 }, { sku: 'BEANS', qty: 10, price: 5 }], placedAt: '2024-03-07T12:00:00Z', tags: ['vip'] },
];
const users = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin', active: true, lastLogin: '2024-03-07T10:00:00Z', address: { city: 'London', country: 'GB' }, scores: [90, 85, 77] },
  { id: 2, name: 'Bob Stone', email: 'bob@example.com', role: 'editor', active: false, lastLogin: null, address: { city: 'Leeds', country: 'GB' }, scores: [] },
  { id: 3, name: 'Cy Young', email: 'cy@example.com', role: 'viewer', active: true, lastLogin: '2024-01-20T08:30:00Z', address: null, scores: [60] },
  { id: 4, name: 'Dee Ortiz', email: 'dee@example.com', role: 'editor', active: true, lastLogin: '2024-03-06T22:45:00Z', address: { city: 'Madrid', country: 'ES' }, scores: [88, 92] },
];
const events = [
  { ts: 1709280000000, type: 'login', user: 1, ok: true },
  { ts: 1709280060000, type: 'view', user: 1, page: '/home', ms: 120 },
  { ts: 1709280120000, type: 'view', user: 2, page: '/pricing', ms: 340 },
  { ts: 1709280180000, type: 'error', user: 2, code: 500, message: 'Upstream timeout' },
  { ts: 1709280240000, type: 'view', user: 1, page: '/pricing', ms: 95 },
  { ts: 1709280300000, type: 'logout', user: 1 },
  { ts: 1709280360000, type: 'error', user: 3, code: 404, message: 'Not found: /old' },
  { ts: 1709280420000, type: 'login', user: 3, ok: false },
];
const invoice = {
  number: 'INV-2024-0042', issued: '2024-03-01', dueDays: 30, taxRate: 0.2, discount: 0.1, currency: 'EUR',
  lines: [{ desc: 'Consulting', hours: 12.5, rate: 80 }, { desc: 'Travel', hours: 1, rate: 45.5 }, { desc: 'Support', hours: 3.25, rate: 60 }],
  client: { name: 'Acme GmbH', vat: 'DE123456789' },
};
const cart = { items: [{ name: 'Mug', price: 9.99, qty: 2 }, { name: 'Tea', price: 4.5, qty: 0 }, { name: 'Kettle', price: 39.95, qty: 1 }], coupon: 'SPRING10', shipping: 4.99 };
const products = [
  { sku: 'A1', title: 'Espresso Cup', price: 7.5, stock: 12, category: 'kitchen', rating: 4.6 },
  { sku: 'B2', title: 'French Press', price: 29, stock: 0, category: 'kitchen', rating: 4.1 },
  { sku: 'C3', title: 'Desk Lamp', price: 45, stock: 3, category: 'office', rating: 3.9 },
  { sku: 'D4', title: 'Notebook', price: 3.25, stock: 140, category: 'office', rating: 4.8 },
  { sku: 'E5', title: 'Café Crème Beans', price: 14.99, stock: 7, category: 'food', rating: 4.4 },
];

const t = topic('real', { orders, users, events, invoice, cart, products, now: 1709800000000, query: 'o', page: 2, perPage: 2, me: { id: 1, role: 'admin' } });

t.g('orders', [
  'orders.length', 'orders.filter(o => o.status === "paid").length', 'orders.filter(o => o.status === "paid").map(o => o.id)',
  'orders.reduce((sum, o) => sum + o.total, 0)', 'orders.filter(o => o.currency === "USD").reduce((sum, o) => sum + o.total, 0).toFixed(2)',
  'orders.map(o => o.items.reduce((s, i) => s + i.qty * i.price, 0))', 'orders.every(o => o.items.length > 0)', 'orders.some(o => o.status === "refunded")',
  'orders.find(o => o.customer === "bob@example.com")?.id', 'orders.findLast(o => o.customer === "ada@example.com").id',
  'orders.toSorted((a, b) => b.total - a.total).slice(0, 3).map(o => o.id)', 'orders.toSorted((a, b) => Date.parse(a.placedAt) - Date.parse(b.placedAt)).map(o => o.id)',
  'orders.reduce((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {})', 'orders.flatMap(o => o.items.map(i => i.sku))',
  'orders.flatMap(o => o.items.map(i => i.sku)).filter((s, i, a) => a.indexOf(s) === i)',
  'orders.flatMap(o => o.tags).filter((t, i, all) => all.indexOf(t) === i).toSorted()', 'orders.filter(o => o.tags.includes("vip")).map(o => o.customer)',
  'Object.entries(orders.reduce((acc, o) => ({ ...acc, [o.customer]: (acc[o.customer] ?? 0) + o.total }), {})).toSorted(([, a], [, b]) => b - a)[0]',
  'orders.map(o => `${o.id} (${o.status}): ${o.total.toFixed(2)} ${o.currency}`)', 'orders.map(o => o.note ?? "—")',
  'orders.filter(o => Date.parse(o.placedAt) >= Date.parse("2024-03-01")).length', 'orders.map(o => o.placedAt.slice(0, 10))',
  'orders.map(o => o.items.length)', 'Math.max(...orders.map(o => o.total))',
  'orders.reduce((best, o) => (o.total > best.total ? o : best)).id', 'orders.findIndex(o => o.total < 1)', 'orders.map(o => o.id.split("-")[1]).map(Number)',
  'orders.filter(o => o.items.some(i => i.sku === "BEANS")).map(o => o.items.find(i => i.sku === "BEANS").qty)',
  'orders.reduce((n, o) => n + o.items.reduce((m, i) => m + i.qty, 0), 0)', '(orders.reduce((s, o) => s + o.total, 0) / orders.length).toFixed(2)',
  'orders.map(({ id, total }) => ({ id, total, big: total > 100 }))', 'orders.filter(o => o.status !== "refunded" && o.status !== "pending").length',
  'orders.map(o => o.customer.split("@")[0]).join(", ")', 'orders.at(-1).items.at(-1).sku', 'orders.map(o => o.items.map(i => `${i.qty}×${i.sku}`).join(" + "))',
]);
t.g('users', [
  'users.filter(u => u.active).map(u => u.name)', 'users.map(u => u.name.split(" ")[0])', 'users.map(u => u.name.split(" ").map(p => p[0]).join(""))',
  'users.filter(u => u.role === "editor" && u.active).length', 'users.map(u => u.address?.city ?? "unknown")', 'users.find(u => u.email === "dee@example.com")?.name',
  'users.map(u => u.scores.length ? Math.round(u.scores.reduce((a, b) => a + b, 0) / u.scores.length) : null)', 'users.toSorted((a, b) => a.name.localeCompare(b.name)).map(u => u.id)',
  'users.filter(u => u.lastLogin && now - Date.parse(u.lastLogin) < 7 * 24 * 3600 * 1000).map(u => u.id)', 'users.map(u => u.email.toLowerCase().endsWith("@example.com"))',
  'users.filter(u => u.name.toLowerCase().includes(query)).map(u => u.name)', 'users.slice((page - 1) * perPage, page * perPage).map(u => u.id)', 'Math.ceil(users.length / perPage)',
  'users.map(u => ({ ...u, scores: undefined, address: undefined }))', 'users.map(({ id, name, role }) => ({ id, label: `${name} <${role}>` }))',
  'Object.fromEntries(users.map(u => [u.id, u.name]))', 'users.reduce((acc, u) => ({ ...acc, [u.role]: [...(acc[u.role] ?? []), u.id] }), {})',
  'users.some(u => u.id === me.id && u.role === "admin")', 'me.role === "admin" ? users.length : users.filter(u => u.active).length',
  'users.flatMap(u => u.scores).toSorted((a, b) => b - a).slice(0, 3)', 'users.map(u => u.address && u.address.country).filter(Boolean)',
  'users.filter(u => !u.active || !u.lastLogin).map(u => u.email)', 'users.map(u => u.name.padEnd(14, ".") + u.role)',
  'users.map(u => `${u.name} (${u.active ? "active" : "inactive"})`).join("; ")', 'users.every(u => typeof u.id === "number")',
  'users.map(u => u.lastLogin?.slice(0, 10) ?? "never")', 'users.filter(u => u.scores.every(s => s >= 80) && u.scores.length > 0).map(u => u.id)',
  'JSON.stringify(users.map(u => u.id))', 'users.map(u => encodeURIComponent(u.name))', 'users.findLastIndex(u => u.active)',
]);
t.g('events', [
  'events.filter(e => e.type === "error").map(e => `${e.code}: ${e.message}`)', 'events.filter(e => e.type === "view").reduce((s, e) => s + e.ms, 0)',
  'Math.max(...events.filter(e => e.ms).map(e => e.ms))', 'events.filter(e => e.type === "view").map(e => e.page).filter((p, i, a) => a.indexOf(p) === i)',
  'events.reduce((acc, e) => ({ ...acc, [e.type]: (acc[e.type] ?? 0) + 1 }), {})', 'events.filter(e => e.user === 1).map(e => e.type).join(" → ")',
  'events.at(-1).ts - events[0].ts', '(events.at(-1).ts - events[0].ts) / 60000', 'events.findLast(e => e.type === "login")?.ok',
  'events.filter(e => e.code >= 500).length', 'events.some(e => e.type === "error" && e.user === 3)', 'events.map(e => e.ts % 86400000 / 3600000)',
  'events.filter(e => e.type === "view").toSorted((a, b) => b.ms - a.ms)[0].page', 'events.map(e => e.message?.toUpperCase()).filter(Boolean)',
  'events.filter((e, i, all) => i > 0 && all[i - 1].type === "view").map(e => e.type)', 'events.map(e => e.page ?? null)',
  'Object.entries(events.reduce((acc, e) => ({ ...acc, [e.user]: (acc[e.user] ?? 0) + 1 }), {})).map(([u, n]) => `${u}:${n}`)',
  '(events.filter(e => e.type === "view").reduce((s, e) => s + e.ms, 0) / events.filter(e => e.type === "view").length).toFixed(1)',
  'events.filter(e => e.type === "error").map(e => e.message.split(":")[0])', 'events.map(e => Math.floor(e.ts / 1000))',
  'events.findIndex(e => e.ok === false)', 'events.filter(e => "page" === "page" && e.page?.startsWith("/p")).length',
]);
t.g('invoice', [
  'invoice.lines.map(l => l.hours * l.rate)', 'invoice.lines.reduce((s, l) => s + l.hours * l.rate, 0)',
  '(invoice.lines.reduce((s, l) => s + l.hours * l.rate, 0) * (1 - invoice.discount)).toFixed(2)',
  '(invoice.lines.reduce((s, l) => s + l.hours * l.rate, 0) * (1 - invoice.discount) * (1 + invoice.taxRate)).toFixed(2)',
  'Math.round(invoice.lines.reduce((s, l) => s + l.hours * l.rate, 0) * invoice.taxRate * 100) / 100',
  'invoice.lines.map(l => `${l.desc.padEnd(12)}${String(l.hours).padStart(6)} × ${l.rate.toFixed(2)} = ${(l.hours * l.rate).toFixed(2)}`)',
  '`Invoice ${invoice.number} for ${invoice.client.name}, due in ${invoice.dueDays} days`', 'Date.parse(invoice.issued) + invoice.dueDays * 86400000',
  'invoice.number.split("-").at(-1)', 'Number(invoice.number.slice(-4))', 'invoice.lines.filter(l => l.hours >= 3).map(l => l.desc)',
  'invoice.lines.toSorted((a, b) => b.hours * b.rate - a.hours * a.rate)[0].desc', 'invoice.client.vat.slice(0, 2)', 'invoice.lines.map(l => l.hours).reduce((a, b) => a + b)',
  '(1234.5).toLocaleString("en-US", { style: "currency", currency: "EUR" })', 'invoice.lines.length > 2 ? `${invoice.lines.length} lines` : "short"',
  'JSON.stringify({ n: invoice.number, total: invoice.lines.reduce((s, l) => s + l.hours * l.rate, 0) })',
]);
t.g('cart', [
  'cart.items.filter(i => i.qty > 0).reduce((s, i) => s + i.price * i.qty, 0)', '(cart.items.reduce((s, i) => s + i.price * i.qty, 0) + cart.shipping).toFixed(2)',
  'cart.items.reduce((n, i) => n + i.qty, 0)', 'cart.coupon.startsWith("SPRING") ? 0.1 : 0', 'Number(cart.coupon.slice(-2))',
  'cart.items.map(i => ({ ...i, subtotal: Math.round(i.price * i.qty * 100) / 100 }))', 'cart.items.filter(i => !i.qty).map(i => i.name)',
  '`${cart.items.filter(i => i.qty).length} items, ${cart.items.reduce((s, i) => s + i.price * i.qty, 0).toFixed(2)}`', 'cart.items.every(i => i.price > 0)',
  'cart.items.toSorted((a, b) => a.price - b.price).map(i => i.name)', 'cart.items.map(i => i.price.toFixed(2).padStart(8))', 'Math.min(...cart.items.map(i => i.price))',
]);
t.g('catalog', [
  'products.filter(p => p.stock > 0).map(p => p.sku)', 'products.filter(p => p.category === "office").reduce((s, p) => s + p.price * p.stock, 0)',
  'products.toSorted((a, b) => b.rating - a.rating).slice(0, 2).map(p => p.title)', 'products.map(p => p.title.toLowerCase().replaceAll(" ", "-"))',
  'products.map(p => p.title.normalize("NFD").length)', 'products.filter(p => p.title.toLowerCase().includes("caf")).length',
  'Object.fromEntries(products.map(p => [p.sku, p.stock > 0 ? "in stock" : "sold out"]))', 'products.map(p => `${p.title}: ${p.stock ? `${p.stock} left` : "sold out"}`)',
  'products.reduce((acc, p) => ({ ...acc, [p.category]: (acc[p.category] ?? 0) + 1 }), {})', 'products.findIndex(p => p.price > 40)',
  'products.filter(p => p.price >= 5 && p.price <= 30).map(p => p.price)', '(products.reduce((s, p) => s + p.rating, 0) / products.length).toFixed(2)',
  'products.map(p => Math.round(p.price * 1.2 * 100) / 100)', 'products.some(p => p.stock === 0)', 'products.map(p => p.sku).join("|")',
  'products.flatMap(p => p.title.split(" ")).filter(w => w.length > 5)', 'products.map(p => "★".repeat(Math.round(p.rating)))',
  'products.filter(p => p.stock < 10 && p.stock > 0).map(({ sku, stock }) => ({ sku, reorder: 10 - stock }))',
]);

export default t.cases;
