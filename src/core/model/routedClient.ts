/**
 * One ModelClient over several adapters: each request goes to the adapter of its `provider` (absent:
 * Anthropic). The roles see one client, so a mission can plan on one provider and execute on another.
 * A request for a provider that was not set up fails with cause `model_unavailable`, never throws.
 */
import { err } from '../contracts/result';
import type { ModelClient } from './modelClient';
import { PROVIDER_LABELS, type ProviderId } from './providers';
import { providerFailure } from './retryLoop';

export type ProviderClients = Partial<Record<ProviderId, ModelClient>>;

export function createRoutedModelClient(clients: ProviderClients): ModelClient {
  return {
    async call(request, signal, hooks) {
      const provider = request.provider ?? 'anthropic';
      const client = clients[provider];
      if (!client) {
        return err({
          durationMs: 0,
          attempts: 1,
          failure: providerFailure(
            provider,
            'model_unavailable',
            `The ${request.role} is set to use ${PROVIDER_LABELS[provider]} (${request.model}), which is not available here.`,
            {
              recoverable: false,
              detail: 'provider_unavailable',
              suggestion: 'Choose another provider for this role in the settings (planExecute.provider, planExecute.models.*).',
            },
          ),
        });
      }
      if (!request.model) {
        return err({
          durationMs: 0,
          attempts: 1,
          failure: providerFailure(provider, 'model_unavailable', `No model is set for the ${request.role} on ${PROVIDER_LABELS[provider]}.`, {
            recoverable: false,
            detail: 'no_model',
            suggestion: "Set planExecute.model (one model for every role), or the role's own model.",
          }),
        });
      }
      return client.call(request, signal, hooks);
    },
    async countTokens(request, signal) {
      return clients[request.provider ?? 'anthropic']?.countTokens?.(request, signal);
    },
  };
}
