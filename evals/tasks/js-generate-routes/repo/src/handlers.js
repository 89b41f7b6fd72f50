'use strict';

const users = [];

module.exports = {
  listUsers: () => users.slice(),
  createUser: (body) => {
    users.push({ id: users.length + 1, name: String(body.name) });
    return users.at(-1);
  },
};
