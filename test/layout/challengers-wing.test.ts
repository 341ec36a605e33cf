/**
 * The challengers are a wing (issue 38, item 2): src/challengers/ holds the shadow strategies'
 * decisions beside the live ones, attached to the pipeline in one line of src/daemon/daemon.ts
 * (attachShadows), which nothing else imports. Deleting the folder and that line leaves lendbot
 * whole; the daemon decides and places without it (test/daemon/challengers-left-out.test.ts). The
 * split's arm share stays in the guard (src/risk/arm-share-rule.ts) and its table in the store,
 * which retraining reads too.
 */
import { describe, expect, it } from 'vitest';
import { importsInto } from './source-graph.js';

describe('the challengers wing', () => {
  it('is imported outside its folder only by its attach line', () => {
    expect(importsInto('challengers')).toEqual(['daemon/daemon.ts -> challengers/shadow-decide.ts']);
  });
});
