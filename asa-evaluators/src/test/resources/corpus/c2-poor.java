import java.util.HashMap;

public class Cache {
  HashMap<String, String> map = new HashMap<>();

  public String get(String k) {
    return map.get(k);
  }

  public void put(String k, String v) {
    if (map.size() > 100) {
      map.clear();
    }
    map.put(k, v);
  }
}
