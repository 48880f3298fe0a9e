// The create walk: how many of the proxy's files one create request goes through, and whether it comes back to
// any (support/create-walk/trace.mjs says exactly how it is traced and counted). Runs the proxy from its sources,
// so it needs no build. `node bench/create-walk.mjs --json` prints the whole walk as JSON instead of the table.
import { MAX_STEPS, traceCreate } from './support/create-walk/trace.mjs';
import { report } from './support/section.mjs';

const walk = await traceCreate();
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(walk, null, 2));
} else {
  const command = 'node bench/create-walk.mjs';
  const edges = (step) => step.from.map((f) => `${f.from} (${f.functions.join(', ')})`).join('; ');
  console.log('\nSteps of one create, in order (entered from):');
  for (const [i, step] of walk.steps.entries()) console.log(`  ${i + 1}. ${step.file}  <-  ${edges(step)}`);
  console.log('\nListed, not counted (entered from):');
  for (const o of walk.others) console.log(`  ${o.kind.padEnd(14)} ${o.file}  <-  ${o.from.join(', ')}`);
  await report({
    id: 'create-walk',
    title: 'Create walk: the proxy files one create request goes through',
    note:
      'One POST /payin/payments for a new order, the proxy from its sources with every function entry recorded ' +
      '(bench/support/create-walk/trace.mjs has the definition). A step is a file of the router, use-cases/ or ' +
      'ledger/ the create enters; a file is visited more than once when it is entered from two files or from one ' +
      'the walk reached after it. Measured, not timed: the figure is the same on any machine.',
    rows: [
      {
        figure: 'steps of a create',
        value: String(walk.steps.length),
        target: `<= ${MAX_STEPS}`,
        verdict: walk.steps.length <= MAX_STEPS ? 'pass' : 'miss',
        command,
      },
      {
        figure: 'files visited more than once',
        value: walk.revisited.length ? walk.revisited.map((r) => `${r.file} (from ${r.from.join(', ')})`).join('; ') : '0',
        target: '0',
        verdict: walk.revisited.length === 0 ? 'pass' : 'miss',
        command,
      },
      {
        figure: 'files entered, counting the HTTP edge too',
        value: String(walk.steps.length + walk.others.filter((o) => o.kind === 'edge').length),
        command,
      },
    ],
    raw: walk,
  });
}
