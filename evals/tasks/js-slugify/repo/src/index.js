'use strict';
const { slugify } = require('./slug');

/** The path of a blog post: /posts/<year>/<slug>. */
function postPath(post) {
  return `/posts/${post.year}/${slugify(post.title)}`;
}

module.exports = { postPath, slugify };
