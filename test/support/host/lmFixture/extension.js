/**
 * A test fixture extension, installed into the integration host beside Plan & Execute: it registers three
 * language models through VS Code's own provider API (the `chatProvider` proposal of VS Code 1.100), so the
 * vscode-lm adapter is tested against VS Code's real Language Model API, consent and error plumbing
 * included. What the models answer is scripted by the test through this extension's exports.
 *
 *   scripted           tool calling, a large context
 *   scripted-no-tools  no tool calling (capabilities.toolCalling false)
 *   scripted-tiny      tool calling, maxInputTokens 50
 *
 * Plain JavaScript on purpose: it is loaded as it is, with no build step.
 */
const vscode = require('vscode');

const MODELS = [
  { id: 'scripted', family: 'scripted', toolCalling: true, maxInputTokens: 200000 },
  { id: 'scripted-no-tools', family: 'no-tools', toolCalling: false, maxInputTokens: 200000 },
  { id: 'scripted-tiny', family: 'tiny', toolCalling: true, maxInputTokens: 50 },
];

/**
 * A message as plain data: role and parts (text, tool calls, tool results). Parts are recognised by shape,
 * not class: VS Code hands providers its own part classes (a tool result arrives as the internal
 * LanguageModelToolResultPart2, with `isError`), which are not the ones an extension can import.
 */
function plain(message) {
  const textOf = (c) => (c && typeof c.value === 'string' ? c.value : '');
  const parts = (Array.isArray(message.content) ? message.content : [message.content]).map((p) => {
    if (typeof p === 'string') return { type: 'text', text: p };
    if (p && typeof p.callId === 'string' && Array.isArray(p.content)) return { type: 'tool_result', callId: p.callId, text: p.content.map(textOf).join(''), isError: p.isError === true };
    if (p && typeof p.callId === 'string' && typeof p.name === 'string') return { type: 'tool_call', callId: p.callId, name: p.name, input: p.input };
    if (p && typeof p.value === 'string') return { type: 'text', text: p.value };
    return { type: 'other', text: `${p && p.constructor ? p.constructor.name : typeof p}: ${JSON.stringify(p)}` };
  });
  return { role: message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', parts };
}

function activate(context) {
  /** @type {(request: any, token: vscode.CancellationToken) => Promise<any>} */
  let responder = async () => ({ text: 'no responder set' });
  const requests = [];
  let calls = 0;
  for (const m of MODELS) {
    const provider = {
      async provideLanguageModelResponse(messages, options, extensionId, progress, token) {
        const request = {
          model: m.id,
          extensionId,
          messages: messages.map(plain),
          tools: (options.tools || []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
          toolMode: options.toolMode,
        };
        requests.push(request);
        const reply = await responder(request, token);
        if (reply.error) {
          const make = vscode.LanguageModelError[reply.error];
          throw typeof make === 'function' ? make(reply.message || reply.error) : new Error(reply.message || reply.error);
        }
        let index = 0;
        if (reply.text) progress.report({ index: index++, part: new vscode.LanguageModelTextPart(reply.text) });
        for (const c of reply.toolCalls || []) progress.report({ index: index++, part: new vscode.LanguageModelToolCallPart(c.id || `fx_${++calls}`, c.name, c.input || {}) });
      },
      async provideTokenCount(text) {
        const content = typeof text === 'string' ? text : JSON.stringify(plain(text).parts);
        return Math.ceil(content.length / 4);
      },
    };
    const metadata = {
      vendor: 'plan-execute-fixture',
      name: `Fixture ${m.id}`,
      family: m.family,
      version: '1',
      maxInputTokens: m.maxInputTokens,
      maxOutputTokens: 8000,
      isUserSelectable: true,
      capabilities: { toolCalling: m.toolCalling },
    };
    context.subscriptions.push(vscode.lm.registerChatModelProvider(m.id, provider, metadata));
  }
  return {
    /** Sets how the models answer: (request) => { text?, toolCalls?: [{ name, input, id? }], error?: 'Blocked' | 'NoPermissions' | 'NotFound' | string, message? }. */
    setResponder(fn) {
      responder = fn;
    },
    /** Every request the models received, as plain data. */
    requests,
  };
}

module.exports = { activate };
