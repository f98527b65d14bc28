// The rulesets' learning data as the node tests read it (gateway/static/aprenda/data/<ruleset>.json):
// each one's tutorial, shaped as GET /api/tutorials lists them: {ruleset, steps, house?}.
import { readdirSync, readFileSync } from 'node:fs';

const DATA = new URL('../aprenda/data/', import.meta.url);

export const TUTORIALS = readdirSync(DATA).filter((f) => f.endsWith('.json')).sort()
  .map((f) => ({ ruleset: f.replace(/\.json$/, ''), ...JSON.parse(readFileSync(new URL(f, DATA), 'utf8')).tutorial }));

/** What a ruleset's learning data says of its house rules' scenes (tutorialhouse.js `houseSteps`). */
export const houseOf = (ruleset) => TUTORIALS.find((x) => x.ruleset === ruleset)?.house || {};
