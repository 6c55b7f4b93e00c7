// hexforge view: steps through a match embedded as JSON (validators/view/frames.py).
// No network: everything the page needs is in the file.
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("hexforge-view-data").textContent);
  const root = document.getElementById("hexforge-view");
  const N = D.steps.length;
  const KEY = 50; // a full board is kept every KEY steps, so a jump applies at most KEY-1 changes
  const $ = (id) => document.getElementById(id);

  // ---- the board at any step ------------------------------------------------------------
  const keyframes = [];
  (function () {
    let board = new Map(D.start.map((r) => [r[0], r]));
    keyframes.push(new Map(board));
    for (let i = 0; i < N; i++) {
      apply(board, D.steps[i].d);
      if ((i + 1) % KEY === 0) keyframes.push(new Map(board));
    }
  })();
  function apply(board, delta) {
    for (const r of delta) {
      if (r.length === 1) board.delete(r[0]); else board.set(r[0], r);
    }
  }
  function boardAt(n) {
    const k = Math.floor(n / KEY);
    const board = new Map(keyframes[k]);
    for (let i = k * KEY; i < n; i++) apply(board, D.steps[i].d);
    return board;
  }
  const turns = [D.start_turn];
  for (let i = 0; i < N; i++) turns.push(D.steps[i].t !== undefined ? D.steps[i].t : turns[i]);

  // ---- maps ------------------------------------------------------------------------------
  const SVG = "http://www.w3.org/2000/svg";
  const maps = D.maps.map((m, i) => {
    const sec = document.createElement("div");
    sec.className = "mapbox";
    const h = document.createElement("h2");
    h.textContent = m.name;
    const wrap = document.createElement("div");
    wrap.className = "wrap";
    const inner = document.createElement("div");
    inner.className = "map";
    inner.dataset.map = m.name;
    for (const b of m.boards) {
      const el = document.createElement(b.image ? "img" : "div");
      el.className = "board";
      if (b.image) { el.src = b.image; el.alt = b.name; }
      Object.assign(el.style, { left: b.x + "px", top: b.y + "px", width: b.w + "px", height: b.h + "px" });
      inner.appendChild(el);
    }
    const svg = document.createElementNS(SVG, "svg");
    svg.classList.add("overlay");
    inner.appendChild(svg);
    wrap.appendChild(inner);
    sec.append(h, wrap);
    $("maps").appendChild(sec);
    return { spec: m, sec, wrap, inner, svg, w: m.size[0], h: m.size[1], used: false };
  });
  let zoom = 1;
  function layout() {
    for (const m of maps) {
      m.inner.style.width = m.w + "px";
      m.inner.style.height = m.h + "px";
      m.inner.style.transform = "scale(" + zoom + ")";
      m.wrap.style.width = Math.ceil(m.w * zoom) + "px";
      m.wrap.style.height = Math.ceil(m.h * zoom) + "px";
      m.svg.setAttribute("width", m.w);
      m.svg.setAttribute("height", m.h);
      m.sec.hidden = !m.used && m.spec.boards.length === 0;
    }
  }

  // ---- counters --------------------------------------------------------------------------
  const shown = new Map(); // piece index -> {el, row}
  let viewer = ""; // "": every face shown; else a side (or player): others' masked pieces masked
  const hidden = (r) => r.length > 9 && viewer !== "" && D.names[r[9]] !== viewer;
  const unseen = (r) => hidden(r) && r[10] === -1; // invisible to this viewer: not drawn at all
  const face = (r) => (hidden(r) ? r[10] : r[6]);
  const label = (r) => D.names[hidden(r) ? r[11] : r[7]];
  function counter(r) {
    const img = D.images[face(r)];
    const el = document.createElement(img ? "img" : "div");
    el.className = "counter";
    if (img) { el.src = img; el.alt = label(r); el.draggable = false; }
    else el.textContent = label(r);
    return el;
  }
  function draw(board) {
    for (const [pid, s] of shown) {
      if (!board.has(pid) || unseen(board.get(pid))) { s.el.remove(); shown.delete(pid); }
    }
    const at = new Map(); // map,x,y -> names in the stack, bottom first
    for (const r of board.values()) {
      if (unseen(r)) continue;
      const key = r[1] + "," + r[2] + "," + r[3];
      if (!at.has(key)) at.set(key, []);
      at.get(key)[r[5]] = label(r);
      let s = shown.get(r[0]);
      if (s && s.row === r) continue;
      if (!s || face(s.row) !== face(r) || s.row[1] !== r[1]) {
        if (s) s.el.remove();
        s = { el: counter(r), row: null };
        shown.set(r[0], s);
        maps[r[1]].inner.insertBefore(s.el, maps[r[1]].svg);
      }
      const m = maps[r[1]];
      const [sx, sy] = m.spec.sep;
      const el = s.el;
      el.dataset.piece = D.names[r[7]];
      el.dataset.location = D.locations[r[8]];
      el.style.left = (r[2] + r[4] * sx) + "px";
      el.style.top = (r[3] - r[4] * sy) + "px";
      el.style.zIndex = 1 + r[5];
      if (r.length > 9) el.dataset.masked = D.names[r[9]]; else delete el.dataset.masked;
      el.classList.toggle("invisible", r.length > 9 && r[10] === -1); // seen by its owner (or all): drawn faint
      if (!el.src) el.textContent = label(r);
      s.row = r;
    }
    for (const s of shown.values()) {
      const r = s.row;
      const names = at.get(r[1] + "," + r[2] + "," + r[3]).filter((x) => x !== undefined);
      s.el.title = D.locations[r[8]] + ": " + names.slice().reverse().join(" / ");
      if (!maps[r[1]].used) { maps[r[1]].used = true; grow(maps[r[1]], r); }
    }
  }
  function grow(m, r) { // a map with no board art: big enough for its counters
    if (m.spec.boards.length === 0) { m.w = Math.max(m.w, r[2] + 80); m.h = Math.max(m.h, r[3] + 80); layout(); }
  }

  // ---- overlays: the step's moves and the findings' hexes ---------------------------------
  function overlays(n) {
    for (const m of maps) m.svg.replaceChildren();
    const step = n > 0 ? D.steps[n - 1] : null;
    for (const mv of (step && step.m) || []) {
      const m = maps[mv[0]];
      const line = document.createElementNS(SVG, "line");
      line.setAttribute("x1", mv[1]); line.setAttribute("y1", mv[2]);
      line.setAttribute("x2", mv[3]); line.setAttribute("y2", mv[4]);
      line.setAttribute("class", "move");
      const dot = document.createElementNS(SVG, "circle");
      dot.setAttribute("cx", mv[3]); dot.setAttribute("cy", mv[4]); dot.setAttribute("r", 8);
      dot.setAttribute("class", "move");
      m.svg.append(line, dot);
    }
    for (const f of D.findings) {
      if (f.step !== n) continue;
      for (const o of f.outlines || []) {
        const mi = D.maps.findIndex((m) => m.name === o.map);
        if (mi < 0) continue;
        const poly = document.createElementNS(SVG, "polygon");
        poly.setAttribute("points", o.points.map((p) => p.join(",")).join(" "));
        poly.setAttribute("class", f.kind === "violation" ? "named violation" : "named event");
        maps[mi].svg.appendChild(poly);
      }
    }
  }

  // ---- log and findings ------------------------------------------------------------------
  const logLines = [[]]; // step -> its line elements
  const frag = document.createDocumentFragment();
  if (D.start_turn) {
    const div = document.createElement("div");
    div.className = "line turn";
    div.textContent = "start  " + D.start_turn;
    div.dataset.step = 0;
    frag.appendChild(div);
    logLines[0].push(div);
  }
  D.steps.forEach((s, i) => {
    const els = [];
    for (const [text, kind, undone] of s.l) {
      const div = document.createElement("div");
      div.className = "line " + kind + (undone ? " undone" : "");
      div.textContent = text;
      div.dataset.step = i + 1;
      frag.appendChild(div);
      els.push(div);
    }
    logLines.push(els);
  });
  $("log").appendChild(frag);
  $("log").addEventListener("click", (e) => { const s = e.target.dataset.step; if (s !== undefined) go(+s); });

  const findingEls = D.findings.map((f) => {
    const li = document.createElement("li");
    li.className = "finding " + (f.kind === "violation" ? "violation" : "event");
    li.dataset.step = f.step;
    li.dataset.rule = f.rule;
    const head = document.createElement("div");
    head.className = "fhead";
    head.textContent = "step " + f.step + " \u00b7 rule " + f.rule + (f.text ? " \u2014 " + f.text : "");
    const msg = document.createElement("div");
    msg.textContent = f.message;
    li.append(head, msg);
    li.addEventListener("click", () => { go(f.step); show(f); });
    $("findings").appendChild(li);
    return li;
  });
  if (!D.findings.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = D.audited ? "No findings: every move in the log is legal." : "Not audited (a log of another module).";
    $("findings").appendChild(li);
  }

  // ---- stepping --------------------------------------------------------------------------
  let current = -1;
  let timer = null;
  function go(n) {
    n = Math.max(0, Math.min(N, n | 0));
    if (n !== current) {
      draw(n === current + 1 && current >= 0 ? (apply(liveBoard, D.steps[n - 1].d), liveBoard) : (liveBoard = boardAt(n)));
      for (const el of logLines[current] || []) el.classList.remove("current");
      current = n;
      overlays(n);
      const mv = n > 0 && D.steps[n - 1].m ? D.steps[n - 1].m[0] : null;
      if (mv) into(mv[0], mv[3], mv[4], false);
      for (const el of logLines[n] || []) el.classList.add("current");
      if (logLines[n] && logLines[n][0]) logLines[n][0].scrollIntoView({ block: "nearest" });
      for (const li of findingEls) li.classList.toggle("current", +li.dataset.step === n);
      const cur = findingEls.find((li) => +li.dataset.step === n);
      if (cur) cur.scrollIntoView({ block: "nearest" });
      root.dataset.currentStep = n;
      $("slider").value = n;
      $("stepno").textContent = "step " + n + " / " + N;
      $("status").textContent = (turns[n] || "") + (D.undo_count ? "  \u00b7  " + D.undo_count + " undo in the log" : "");
      $("now").replaceChildren(...(logLines[n] || []).map((el) => {
        const d = document.createElement("div");
        d.className = el.className.replace("current", "");
        d.textContent = el.textContent;
        return d;
      }));
      if (location.hash !== "#step=" + n) history.replaceState(null, "", "#step=" + n);
    }
    if (n >= N) stop();
  }
  let liveBoard = null;
  function stop() { if (timer) { clearInterval(timer); timer = null; } $("play").textContent = "Play"; }
  function play() {
    if (timer) return stop();
    if (current >= N) go(0);
    timer = setInterval(() => go(current + 1), 1000 / +$("speed").value);
    $("play").textContent = "Pause";
  }
  function finding(dir) {
    const steps = D.findings.map((f) => f.step);
    const next = dir > 0 ? steps.filter((s) => s > current).sort((a, b) => a - b)[0]
      : steps.filter((s) => s < current).sort((a, b) => b - a)[0];
    if (next !== undefined) { go(next); show(D.findings.find((f) => f.step === next)); }
  }
  function show(f) { // the finding's first hex brought into view
    const o = f && (f.outlines || [])[0];
    const mi = o ? D.maps.findIndex((m) => m.name === o.map) : -1;
    if (mi < 0) return;
    const xs = o.points.map((p) => p[0]), ys = o.points.map((p) => p[1]);
    if (zoom < 1) setZoom(1); // from the whole map (the page opens fitted) to the hex at full size
    into(mi, (Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2, true);
  }
  function into(mi, x, y, always) { // a point of a map brought to the middle of the view (when out of it)
    const box = $("maps"), wrap = maps[mi].wrap;
    const px = wrap.offsetLeft - box.offsetLeft + x * zoom, py = wrap.offsetTop - box.offsetTop + y * zoom;
    const seen = px > box.scrollLeft + 40 && px < box.scrollLeft + box.clientWidth - 40 &&
      py > box.scrollTop + 40 && py < box.scrollTop + box.clientHeight - 40;
    if (always || !seen) {
      box.scrollLeft = px - box.clientWidth / 2;
      box.scrollTop = py - box.clientHeight / 2;
    }
  }
  function fromHash() {
    const m = /step=(\d+)/.exec(location.hash);
    return m ? +m[1] : 0;
  }
  function setZoom(z) {
    zoom = Math.max(0.02, Math.min(4, z));
    layout();
  }
  function fit() { // the zoom at which the widest map shown fits the map panel across (no more than 1):
    // the page opens with every map whole from side to side, its legend not cut mid-word (issue 35)
    const box = $("maps"), cs = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const widest = Math.max(1, ...maps.filter((m) => !m.sec.hidden).map((m) => m.w));
    return Math.min(1, Math.floor((room / widest) * 1000) / 1000);
  }

  const owners = new Set();
  for (const rows of [D.start, ...D.steps.map((s) => s.d)]) for (const r of rows) if (r.length > 9) owners.add(D.names[r[9]]);
  for (const o of [...owners].sort()) $("side").add(new Option("as " + o + " sees it", o));
  $("side").add(new Option("every mask on", "*")); // as an onlooker of no side sees the table
  $("side").hidden = owners.size === 0;
  $("side").onchange = (e) => {
    viewer = e.target.value;
    for (const s of shown.values()) s.el.remove();
    shown.clear();
    draw(liveBoard);
  };
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(current - 1);
  $("forward").onclick = () => go(current + 1);
  $("last").onclick = () => go(N);
  $("play").onclick = play;
  $("speed").onchange = () => { if (timer) { stop(); play(); } };
  $("slider").oninput = (e) => go(+e.target.value);
  $("zoomin").onclick = () => setZoom(zoom * 1.25);
  $("zoomout").onclick = () => setZoom(zoom / 1.25);
  $("fit").onclick = () => setZoom(fit());
  window.addEventListener("hashchange", () => go(fromHash()));
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || (e.target.tagName === "INPUT" && e.target.type !== "range")) return;
    const act = { ArrowRight: () => go(current + 1), ArrowLeft: () => go(current - 1), Home: () => go(0),
      End: () => go(N), n: () => finding(1), p: () => finding(-1), " ": play,
      "+": () => setZoom(zoom * 1.25), "=": () => setZoom(zoom * 1.25), "-": () => setZoom(zoom / 1.25), 0: () => setZoom(fit()) }[e.key];
    if (act) { e.preventDefault(); act(); }
  });
  let drag = null; // pan by dragging the map
  $("maps").addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY, l: $("maps").scrollLeft, t: $("maps").scrollTop }; });
  window.addEventListener("mouseup", () => { drag = null; });
  window.addEventListener("mousemove", (e) => {
    if (drag) { $("maps").scrollLeft = drag.l - (e.clientX - drag.x); $("maps").scrollTop = drag.t - (e.clientY - drag.y); }
  });

  layout();
  go(fromHash());
  setZoom(fit());
})();
