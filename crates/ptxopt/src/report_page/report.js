'use strict';
// Errors and resource loads are written on <body> (data-errors,
// data-resources), so a headless browser's DOM dump shows them.
window.addEventListener('error', e => { document.body.dataset.errors = (document.body.dataset.errors || '') + e.message + '\n'; });
const DATA = JSON.parse(document.getElementById('data').textContent);
const esc = s => String(s).replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
const root = document.getElementById('root');
root.textContent = '';
DATA.files.forEach((file, fi) => {
  const h = document.createElement('h2');
  h.textContent = file.file + (file.target ? ' (target ' + file.target + ')' : '');
  root.appendChild(h);
  if (file.error) {
    const p = document.createElement('p'); p.className = 'err'; p.textContent = file.error;
    root.appendChild(p); return;
  }
  const lines = file.source.split('\n');
  const table = document.createElement('table');
  table.className = 'summary';
  table.innerHTML = '<tr><th>function</th><th>lines</th><th>instructions</th><th>max live R</th><th>max live P</th><th>warps/SM at max R</th><th>loops</th><th>remarks</th></tr>' +
    file.functions.map((f, i) => '<tr><td title="' + esc(f.name) + '"><a href="#f' + fi + '_' + i + '">' + esc(f.name) + '</a></td><td>' + f.start + '–' + f.end +
      '</td><td>' + f.instructions + '</td><td>' + f.max_r + '</td><td>' + f.max_p + '</td><td>' + occupancy(file, f.max_r) +
      '</td><td>' + f.loops.length + '</td><td>' + f.remarks.length + '</td></tr>').join('');
  root.appendChild(table);
  file.functions.forEach((f, i) => {
    const d = document.createElement('details');
    d.className = 'fn'; d.id = 'f' + fi + '_' + i;
    d.innerHTML = '<summary>.' + f.kind + ' ' + esc(f.name) + ' — max live R ' + f.max_r + ' (line ' + f.r_line + '), P ' + f.max_p +
      ', ' + f.loops.length + ' loop' + (f.loops.length === 1 ? '' : 's') + (f.optimized ? ', changed by the optimizer' : '') + '</summary>';
    let done = false;
    d.render = () => { if (!done) { done = true; d.appendChild(renderFunction(file, f, lines)); } };
    d.addEventListener('toggle', () => { if (d.open) d.render(); });
    root.appendChild(d);
  });
});
// `#open-all` opens every section; `#fN_M` opens one.
if (location.hash === '#open-all') document.querySelectorAll('details.fn').forEach(d => { d.open = true; d.render(); });
else if (location.hash) { const t = document.getElementById(location.hash.slice(1)); if (t && t.tagName === 'DETAILS') { t.open = true; t.render(); t.scrollIntoView({block: 'start', inline: 'nearest'}); } }
document.body.dataset.resources = String(performance.getEntriesByType('resource').length);
document.body.dataset.rendered = 'yes';

function occupancy(file, regs) {
  let w = file.max_warps;
  for (const [r, warps] of file.occupancy) { if (regs >= r) w = warps; }
  return w;
}

function renderFunction(file, f, lines) {
  const box = document.createElement('div');
  box.appendChild(plot(file, f));
  const legend = document.createElement('div');
  legend.className = 'legend';
  legend.innerHTML = '<span><i class="sw" style="background:#1f6feb"></i>live R</span><span><i class="sw" style="background:#d9822b"></i>live P</span>' +
    '<span><i class="sw" style="background:#999"></i>occupancy step (warps/SM)</span><span><i class="sw" style="background:#c00"></i>peak</span>' +
    '<span><i class="sw" style="background:#2da44e"></i>loop</span>';
  box.appendChild(legend);
  if (f.peak_live.length) {
    const p = document.createElement('p');
    p.innerHTML = 'Live at the peak (line ' + f.r_line + '): <code>' + esc(f.peak_live.join(' ')) + '</code>';
    box.appendChild(p);
  }
  f.loops.forEach(l => {
    const div = document.createElement('div');
    div.className = 'loopbox';
    let s = '<b>loop at line ' + l.header + '</b> (lines ' + l.first + '–' + l.last + ', depth ' + l.depth + ', latch line ' + l.latches.join(', ') +
      '): trip count ' + (l.trip !== null ? l.trip : 'unknown' + (l.trip_unknown ? ' (' + esc(l.trip_unknown) + ')' : ''));
    if (l.res_mii !== null) s += ', ResMII ' + l.res_mii + ', RecMII ' + l.rec_mii;
    s += '<br>peak R ' + l.peak_r + (l.peak_line ? ' at line ' + l.peak_line : '') + '; live there: <code>' + esc(l.live.join(' ')) + '</code>';
    if (l.decisions.length) s += '<br>decisions: ' + l.decisions.map(d => '[' + esc(d[0]) + '] ' + esc(d[1]) + (d[2] ? ' (' + esc(d[2]) + ')' : '')).join('; ');
    else s += '<br>decisions: none recorded by a loop phase';
    l.remarks.forEach(r => { s += '<br><span class="' + (r[2] === 'missed' ? 'missed' : 'remark') + '">line ' + r[0] + ': [' + esc(r[1]) + '] ' + r[2] + ': ' + esc(r[3]) + '</span>'; });
    div.innerHTML = s;
    box.appendChild(div);
  });
  const cols = document.createElement('div');
  cols.className = 'cols';
  const left = document.createElement('div');
  left.appendChild(source(f, lines));
  cols.appendChild(left);
  if (f.optimized) {
    const right = document.createElement('div');
    right.innerHTML = '<b>optimized</b><pre class="opt">' + esc(f.optimized) + '</pre>';
    left.insertAdjacentHTML('afterbegin', '<b>original</b>');
    cols.appendChild(right);
  }
  box.appendChild(cols);
  return box;
}

function plot(file, f) {
  const W = 900, H = 200, L = 40, R = 70, T = 10, B = 22;
  const x0 = f.start, x1 = Math.max(f.end, f.start + 1);
  // Up to the next occupancy step above the peak: how far the kernel is from
  // losing warps.
  const next = file.occupancy.map(s => s[0] - 1).find(r => r >= f.max_r);
  const top = Math.max(4, f.max_r, f.max_p, next === undefined ? 0 : next) * 1.1;
  const X = l => L + (l - x0) / (x1 - x0) * (W - L - R);
  const Y = v => T + (1 - v / top) * (H - T - B);
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', 'plot'); svg.setAttribute('width', W); svg.setAttribute('height', H);
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  const add = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; svg.appendChild(e); return e; };
  f.loops.forEach(l => add('rect', {class: 'loop', x: X(l.first), y: T, width: Math.max(1, X(l.last) - X(l.first)), height: H - T - B}));
  for (const [r, warps] of file.occupancy) {
    if (r - 1 > top) break;
    add('line', {class: 'occ', x1: L, x2: W - R, y1: Y(r - 1), y2: Y(r - 1)});
    add('text', {class: 'occ-label', x: W - R + 3, y: Y(r - 1) + 3}, '≤' + (r - 1) + ': ' + occupancy(file, r - 1) + 'w');
  }
  const pts = k => f.lines.map(p => X(p[0]).toFixed(1) + ',' + Y(p[k]).toFixed(1)).join(' ');
  add('polyline', {class: 'r', points: pts(1)});
  add('polyline', {class: 'p', points: pts(2)});
  add('circle', {class: 'peak', cx: X(f.r_line), cy: Y(f.max_r), r: 4}).appendChild(document.createElementNS(NS, 'title')).textContent = 'peak: ' + f.max_r + ' R at line ' + f.r_line;
  add('text', {class: 'axis', x: X(f.r_line) + 6, y: Y(f.max_r) + 4}, 'peak ' + f.max_r + ' R, line ' + f.r_line);
  add('line', {x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: '#888'});
  add('line', {x1: L, x2: L, y1: T, y2: H - B, stroke: '#888'});
  add('text', {class: 'axis', x: L, y: H - 6}, 'line ' + x0);
  add('text', {class: 'axis', x: W - R - 60, y: H - 6}, 'line ' + x1);
  add('text', {class: 'axis', x: 2, y: T + 8}, Math.round(top));
  add('text', {class: 'axis', x: 2, y: H - B}, '0');
  return svg;
}

function source(f, lines) {
  const by = new Map(f.lines.map(p => [p[0], p]));
  const rm = new Map();
  f.remarks.forEach(r => { if (r[0] !== null) { if (!rm.has(r[0])) rm.set(r[0], []); rm.get(r[0]).push(r); } });
  const scale = 100 / Math.max(1, f.max_r + f.max_p);
  const rows = [];
  for (let n = f.start; n <= f.end && n <= lines.length; n++) {
    const p = by.get(n);
    const bar = p ? '<span class="b" style="width:' + (p[1] * scale).toFixed(1) + 'px"></span><span class="bp" style="width:' + (p[2] * scale).toFixed(1) + 'px"></span>' : '';
    const nums = p ? p[1] + ' ' + p[2] : '';
    let code = esc(lines[n - 1]);
    const marks = rm.get(n);
    if (marks) code += marks.map(r => '  <span class="' + (r[2] === 'missed' ? 'missed' : 'remark') + '">// [' + esc(r[1]) + '] ' + esc(r[3]) + '</span>').join('');
    rows.push('<tr' + (n === f.r_line ? ' class="peak"' : marks ? ' class="rm"' : '') + '><td class="n">' + n + '</td><td class="bar">' + bar + '</td><td class="n">' + nums + '</td><td class="code">' + code + '</td></tr>');
  }
  const t = document.createElement('table');
  t.className = 'src';
  t.innerHTML = '<tr><th>line</th><th>pressure</th><th>R P</th><th></th></tr>' + rows.join('');
  return t;
}
