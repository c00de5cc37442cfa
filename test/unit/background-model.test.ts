// background-model.json counts the sketch's text buckets of generic text (bin/train-background.ts): it means what the
// sketch means only while the sketch's features are the ones it was built with. A change to them (sketch.ts) must
// come with a rebuilt file (`npx tsx bin/train-background.ts`, then `npm run eval`); this fails until it does.
import {
  BACKGROUND_KEY,
  BACKGROUND_PROBE,
  type BackgroundFile,
  backgroundPerFeature,
  countAt,
} from '../../lambdas/domain/learning/background';
import { TEXT_BUCKETS, sketchKeyOf, sketchSignal } from '../../lambdas/domain/learning/sketch';
import file from '../../lambdas/domain/learning/background-model.json';

const model: BackgroundFile = file;

describe('the shipped background of a learned priority', () => {
  it('was counted with the sketch the service makes today, under its own key', () => {
    expect(model.key).toBe(BACKGROUND_KEY);
    expect(sketchSignal(sketchKeyOf(BACKGROUND_KEY), { body: BACKGROUND_PROBE }).t).toEqual(model.probe);
  });

  it('holds one count per text bucket, summing to its total as the service reads them', () => {
    const bytes = Buffer.from(model.counts, 'base64');
    expect(bytes.length).toBe(2 * TEXT_BUCKETS);
    let total = 0;
    for (let b = 0; b < TEXT_BUCKETS; b++) total += countAt(bytes, b);
    expect(total).toBe(model.total);
  });

  it('reads everyday mail as likelier under generic text than rare technical words', () => {
    const everyday = backgroundPerFeature({ body: 'Thanks for the update, see you at the meeting on Monday.' });
    const technical = backgroundPerFeature({ body: 'Segfault in libxul nsHttpChannel::OnStopRequest after xpcshell.' });
    expect(everyday).toBeGreaterThan(technical);
  });
});
