// Feedback's cost on a workspace that learned (issue 23): the cost section's feedback line again, on the bench
// workspace after the workspace section taught it, with the journal's folds paid in. A fold sums FOLD_WINDOW
// feedbacks into the label items (billed by the whole items it touches) once per window, so one sample of a few
// hundred feedbacks holds one fold or none: the folds' units measured while teaching the whole workspace are spread
// over every feedback instead (amortized), and the sample's own fold units taken out.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { API_BASE_PATH } from '../../lambdas/contract/routes';
import { consumedUnits } from '../../lambdas/stores/dynamodb-client';
import { DynamoFeedbackStore } from '../../lambdas/stores/feedback-store';
import { type CallSample, LOG_RETENTION_DAYS, call, meteredService, priceFigures, resources } from './cost-measure';
import { type Figures, progress, round3 } from './common';
import type { World } from './world';

/** Sums the write units DynamoDB reports for a client's writes while attached (DynamoDB bills updates by the item). */
export function writeUnitMeter(client: DynamoDBDocumentClient): { units: number; detach(): void } {
  const name = `benchWriteUnits${Math.random()}`;
  const meter = {
    units: 0,
    detach: () => {
      client.middlewareStack.remove(name);
    },
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? '');
      const writes = /^(PutItem|UpdateItem|DeleteItem|TransactWriteItems|BatchWriteItem)Command$/.test(command);
      if (writes) (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      if (writes) {
        meter.units += consumedUnits(out.output);
      }
      return out;
    },
    { step: 'initialize', name },
  );
  return meter;
}

/**
 * `teach`: [query, category] pairs to correct decisions with; `foldUnitsPerFeedback`: write and read units;
 * `shuffledFoldUnitsPerFeedback`: the same measured teaching in a seeded shuffled order (feedback in any order), priced
 * on the same calls as `cost_feedback_learned_shuffled_*`.
 */
export async function benchLearnedFeedbackCost(
  world: World,
  teach: [string, string][],
  foldUnitsPerFeedback: { write: number; read: number },
  shuffledFoldUnitsPerFeedback: { write: number; read: number },
): Promise<Figures> {
  const { service, meter } = meteredService(world);
  const key = await world.newKey();
  const ws = world.workspace;
  const folder = (service.dependencies.feedbackStore as DynamoFeedbackStore).folder;
  const samples: CallSample[] = [];
  try {
    progress(`  cost: feedback on the taught workspace, ${teach.length} corrections ...`);
    const ids: string[] = [];
    for (const [text] of teach) {
      const out = await call(service, meter, {
        key,
        method: 'POST',
        path: `${API_BASE_PATH}/signals/analyze`,
        body: JSON.stringify({ workspace_id: ws, source: 'support_message', body: text }),
      });
      ids.push((JSON.parse(out.result.body) as { decision_id: string }).decision_id);
    }
    for (const [i, [, category]] of teach.entries()) {
      const before = { ...folder.stats };
      const sample = await call(service, meter, {
        key,
        method: 'POST',
        path: `${API_BASE_PATH}/decisions/${ids[i]}/feedback`,
        body: JSON.stringify({ category }),
      });
      // This call's own fold (if any) is replaced by every feedback's share of all folds.
      sample.writeUnits += foldUnitsPerFeedback.write - (folder.stats.writeUnits - before.writeUnits);
      sample.readUnits += foldUnitsPerFeedback.read - (folder.stats.readUnits - before.readUnits);
      samples.push(sample);
    }
  } finally {
    service.close();
  }
  const line = (name: string, lineSamples: CallSample[]) =>
    resources(
      {
        name,
        decisions: 1,
        samples: lineSamples,
        // As the cost section's feedback line: read the decision, store the feedback.
        floor: { writeUnits: 1, readUnits: 0.5 },
        routeKey: `POST ${API_BASE_PATH}/decisions/{decision_id}/feedback`,
      },
      LOG_RETENTION_DAYS / 30,
    );
  const { measured, floor } = line('feedback_learned', samples);
  // The same calls with the shuffled teaching's fold share in place of the file-order one.
  const shuffled = line(
    'feedback_learned_shuffled',
    samples.map((s) => ({
      ...s,
      writeUnits: s.writeUnits - foldUnitsPerFeedback.write + shuffledFoldUnitsPerFeedback.write,
      readUnits: s.readUnits - foldUnitsPerFeedback.read + shuffledFoldUnitsPerFeedback.read,
    })),
  );
  return {
    ...priceFigures('feedback_learned', measured, floor),
    ...priceFigures('feedback_learned_shuffled', shuffled.measured, shuffled.floor),
    cost_feedback_learned_write_units: round3(measured.writeUnits),
    cost_feedback_learned_read_units: round3(measured.readUnits),
    cost_feedback_learned_billed_ms_route: round3(measured.billedMs[1]),
    cost_feedback_learned_calls_measured: samples.filter((s) => s.result.statusCode === 200).length,
  };
}
