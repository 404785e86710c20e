/**
 * The agreement as a document: {@link dev.asa.document.Agreement} (its terms, state, signatures and
 * digest, with the server's facts beside it), reading documents ({@link
 * dev.asa.document.AgreementDocuments}), turning a post into a new one ({@link
 * dev.asa.document.AgreementDrafts}) and standalone criteria read the same way ({@link
 * dev.asa.document.StandaloneCriteria}).
 *
 * <p>It sits above {@code dev.asa.agreement} (the terms and their rules), {@code dev.asa.facts},
 * {@code dev.asa.lifecycle}, {@code dev.asa.template} and {@code dev.asa.scoring}, which all depend
 * on the terms and none on the agreement, so the packages form no cycle.
 */
package dev.asa.document;
