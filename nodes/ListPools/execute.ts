import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { listIn } from '../shared/answer';
import { errorFromAnswer, unexpectedAnswer } from '../shared/errors';
import { perItem } from '../shared/perItem';
import { poolsOf } from '../shared/pools';
import { TIMEOUT_HINT, timeoutMsOf } from '../shared/timeout';
import { apiRequest } from '../shared/transport';
import { LIST_POOLS_TIMEOUT_SECONDS } from './description';

/** One item per pool, once per input item. */
export async function listPools(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await perItem(this, async (i) => {
			const answer = await apiRequest.call(this, 'inbox', 'GET', '/pools', {
				itemIndex: i,
				timeoutMs: timeoutMsOf(this, i, LIST_POOLS_TIMEOUT_SECONDS),
				timeoutHint: TIMEOUT_HINT,
			});
			if (answer.statusCode < 200 || answer.statusCode >= 300)
				throw errorFromAnswer(this, answer, i);
			const list = listIn(answer.body, 'pools');
			if (!list) throw unexpectedAnswer(this, answer, 'a list of pools', i);
			return poolsOf(list);
		}),
	];
}
