package dev.asa.coc;

/** An entry that is not a CoC entry at all (wrong member types, unreadable line). */
public final class CocFormatException extends RuntimeException {
  private final transient CocFailure failure;

  public CocFormatException(CocFailure failure) {
    super(failure.toString(), null, false, false);
    this.failure = failure;
  }

  public CocFailure failure() {
    return failure;
  }
}
