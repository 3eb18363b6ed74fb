/**
 * 公示 (issue 38 items 3 and 4): a competition's 公示期, its public award list (provisional, then final with certificate
 * numbers), objections by verified users into the dispute queue, and the pages other sites may frame (boards and
 * results, with JSON and CSV). Other modules use nothing of it.
 */
export {};
