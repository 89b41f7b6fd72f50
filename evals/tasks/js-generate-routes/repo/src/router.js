'use strict';
const routes = require('./routes.generated');
const handlers = require('./handlers');

/** Calls the handler of METHOD PATH with the body; undefined for an unknown route. */
function dispatch(method, path, body) {
  const route = routes.find((r) => r.method === method && r.path === path);
  if (!route) return undefined;
  const handler = handlers[route.handler];
  if (typeof handler !== 'function') throw new Error(`no handler ${route.handler}`);
  return handler(body);
}

module.exports = { dispatch };
