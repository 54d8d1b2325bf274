// bench/run.mjs's tables on the terminal: the figures, and the goals of BENCHMARKS.md met or missed.

/** The figures as tables, and the goals (BENCHMARKS.md) met or missed. Also returns the markdown. */
export function printTable(r) {
  const ms = (v) => (Number.isFinite(v) ? v.toFixed(3) : '—');
  const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '—');
  /** Numbers right-aligned; with `left`, every column left-aligned (for sentences). */
  const table = (title, header, rows, { left = false } = {}) => {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
    const line = (cells) =>
      cells
        .map((c, i) => (i && !left ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
        .join('  ')
        .trimEnd();
    console.log(`\n${title}\n${line(header)}`);
    for (const row of rows) console.log(line(row));
  };
  console.log(
    `bench: ${r.machine.chromium}, ${r.machine.cpus} × ${r.machine.cpu}, Node ${r.machine.node}; ` +
      `crossOriginIsolated=${r.crossOriginIsolated} (timer resolution ${r.crossOriginIsolated ? '5 µs' : '100 µs'})`,
  );
  const goals = [];
  if (r.roundTrip) {
    table(
      `Round trip, one call in flight (ms; ${r.plan.rounds} interleaved rounds × ${r.plan.perRound} calls per subject)`,
      [
        'subject',
        'median',
        'p95',
        'p99',
        `median of ${r.plan.batch}-call means`,
        '× raw MC',
        '× raw MC, paired rounds',
        '× Penpal, paired rounds',
      ],
      Object.entries(r.roundTrip).map(([name, s]) => [
        name,
        ms(s.median),
        ms(s.p95),
        ms(s.p99),
        ms(s.batchMedian),
        x(s.ratio),
        x(s.ratioPairedRounds),
        x(s.toPenpalPairedRounds),
      ]),
    );
    const sdk = r.roundTrip['SDK Plugin#getVideos'];
    // Judged round by round: each round compares subjects measured seconds apart, so the ratio
    // survives the machine's load drifting during the run.
    const ratio = sdk.ratioPairedRounds;
    goals.push(
      `SDK round trip ≤ 1.1 × raw MessageChannel: ${ratio <= 1.1 ? 'met' : 'MISSED'} (${x(ratio)}, paired rounds)`,
    );
    goals.push(
      `SDK round trip ≤ Penpal 7: ${sdk.toPenpalPairedRounds <= 1 ? 'met' : 'MISSED'} ` +
        `(${x(sdk.toPenpalPairedRounds)} Penpal's, paired rounds)`,
    );
  }
  if (r.concurrent) {
    table(
      `${r.plan.concurrent} concurrent calls (ms until all settled; median of ${r.plan.concurrentRounds} rounds)`,
      ['subject', 'total', 'per call', 'failures'],
      Object.entries(r.concurrent).map(([name, c]) => [name, ms(c.medianMs), ms(c.medianMs / c.calls), c.failures]),
    );
    const failures = Object.values(r.concurrent).reduce((sum, c) => sum + c.failures, 0);
    goals.push(
      `${r.plan.concurrent} concurrent calls all succeed: ${failures ? `MISSED (${failures} failed)` : 'met'}`,
    );
  }
  if (r.push) {
    table(
      'Event push, frame → host callback, one way (ms; clocks aligned by probes)',
      ['subject', 'median', 'p95', 'p99', 'n', 'missing'],
      Object.entries(r.push).map(([name, s]) => [name, ms(s.median), ms(s.p95), ms(s.p99), s.n, s.missing]),
    );
  }
  if (r.startup) {
    table(
      'Startup: create → first answered call, frame load and handshake included (ms)',
      ['kind', 'median', 'p95', 'n'],
      Object.entries(r.startup).map(([name, s]) => [name, ms(s.median), ms(s.p95), s.n]),
    );
  }
  if (r.leaks) {
    const l = r.leaks;
    table(
      `Leftovers after ${l.cycles} × (new Plugin, on, subscribe, getVideos, cleanup())`,
      ['what', 'left'],
      [
        ['listeners', l.live.listeners],
        ['timers', l.live.timers],
        ['message ports (open)', l.live.ports],
        ['iframes in the DOM', l.iframesLeft],
        ['overlay <div>s in the DOM', l.overlaysLeft],
        ['Plugin objects (heap)', l.objectsLeft.Plugin],
        ['HostConnection objects (heap)', l.objectsLeft.HostConnection],
        ['HTMLIFrameElement objects (heap)', l.objectsLeft.HTMLIFrameElement],
        ['MessagePort objects (heap)', l.objectsLeft.MessagePort],
        ['JS heap growth (bytes)', `${l.heapGrowth} (${l.heapGrowthPerCycle} per cycle)`],
        [
          '  of which objects (JS, DOM, strings)',
          `${l.heapGrowthByKind.objects.bytes} bytes, ${l.heapGrowthByKind.objects.count} objects` +
            ` (${Object.entries(l.heapGrowthByKind.objects.byType)
              .map(([type, n]) => `${type} ${n > 0 ? '+' : ''}${n}`)
              .join(', ')})`,
        ],
        ['  of which engine (compiled code, V8 caches)', `${l.heapGrowthByKind.engine.bytes} bytes`],
        ['failed calls', l.failures],
        ['ms per cycle', ms(l.msPerCycle)],
      ],
      { left: true },
    );
    const left = [l.live.listeners, l.live.timers, l.live.ports, l.iframesLeft, l.overlaysLeft, l.objectsLeft.Plugin];
    goals.push(`zero leftovers after ${l.cycles} cycles: ${left.every((v) => v === 0) ? 'met' : 'MISSED'}`);
  }
  if (r.realService?.skipped) {
    console.log(`\nReal local service: not measured (${r.realService.skipped})`);
  } else if (r.realService) {
    const s = r.realService;
    const row = (what, f) => [what, ms(f.median), ms(f.p95), f.n];
    table(
      `Real local service (${s.serviceURL}; this page is not isolated: 0.1 ms timers)`,
      ['what', 'median', 'p95', 'n'],
      [
        row('new Plugin → first getVideos()', s.firstCall),
        row('createAccount(token) (HTTP behind it)', s.createAccount),
        row('openPlugin() → pluginOpened (first)', s.coldOpen),
        row('openPlugin() → pluginOpened (again)', s.warmOpen),
      ],
    );
    if (s.errors.length) console.log(`errors (${s.errors.length}): ${s.errors.join(' | ')}`);
  }
  if (goals.length) console.log(`\nGoals (BENCHMARKS.md):\n  ${goals.join('\n  ')}`);
}

export function printProfile(p) {
  console.log(`Profile of ${p.subject} in a loop (unminified pages): ${p.msPerCall.toFixed(3)} ms per call`);
  for (const [side, { file, top }] of Object.entries(p.sides)) {
    console.log(`\n${side} (${file}), self time by function, share of all samples:`);
    for (const { name, share } of top) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
}
