'use strict';

/** A URL slug for a title: lower case, words joined by single hyphens. */
function slugify(title) {
  return title.toLowerCase().replace(/ /g, '-');
}

module.exports = { slugify };
