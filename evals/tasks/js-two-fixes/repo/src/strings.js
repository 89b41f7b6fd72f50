'use strict';

/** "hello" → "Hello". */
function capitalize(text) {
  return text[0].toUpperCase() + text.slice(1);
}

/** "a b" → "b a". */
function reverseWords(text) {
  return text.split(' ').reverse().join(' ');
}

module.exports = { capitalize, reverseWords };
