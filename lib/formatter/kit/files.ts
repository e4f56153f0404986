/**
 * What most formats accept, by file extension and by a raw body's media type, for a formatter
 * object to spread. Frozen to the last array: every formatter that spreads one shares its lists.
 */

/** An XML report: `.xml`, sent as either XML media type. */
export const XML_FILES = Object.freeze({
  extensions: Object.freeze(['.xml']),
  mediaTypes: Object.freeze(['application/xml', 'text/xml']),
});

/** A JSON report: `.json`, sent as `application/json`. */
export const JSON_FILES = Object.freeze({
  extensions: Object.freeze(['.json']),
  mediaTypes: Object.freeze(['application/json']),
});
