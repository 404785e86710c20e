/**
 * The archive file: ended agreements moved out of a server's hot tables after retention (whitepaper
 * §10, scalability: "archive agreements older than a retention period"), and the check anyone can
 * run on one ({@link dev.asa.archive.ArchiveVerifier}).
 *
 * <p>The file is JSON Lines in UTF-8: a header line, one line per agreement (its document, facts,
 * event chain, ledger entries, results and the metadata of its deliverables, never their content),
 * and a last line holding the {@link dev.asa.archive.ArchiveManifest} with the server's Ed25519
 * signature over its JCS form. The manifest pins the digest and length of everything before it.
 */
package dev.asa.archive;
