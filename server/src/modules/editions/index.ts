/**
 * Editions (issue 38): a competition copied as its next edition, the editions of one line (往届), and a competition's
 * settings exported as an archive and imported on another platform. Other modules use nothing of it.
 */
export {};
