import { strict as assert } from 'node:assert';
import type { ContentBlock as SdkContentBlock } from '@anthropic-ai/sdk/resources/messages/messages';
import { toCoreContent } from '../../../src/node/model/anthropicClient';

describe('the Anthropic adapter: response blocks as the model port types them', () => {
  it('passes the kinds the roles know through as they came', () => {
    const blocks = [
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'text', text: 'hello', citations: null },
      { type: 'tool_use', id: 'tu_1', name: 'view_file', input: { path: 'a.ts' }, caller: { type: 'direct' } },
      { type: 'redacted_thinking', data: 'xyz' },
    ] as SdkContentBlock[];
    assert.deepEqual(toCoreContent(blocks), blocks);
  });

  it('names a block of another kind in a text block instead of dropping it unseen', () => {
    const serverToolUse = { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} } as unknown as SdkContentBlock;
    assert.deepEqual(toCoreContent([serverToolUse]), [{ type: 'text', text: '[server_tool_use block omitted]' }]);
  });
});
