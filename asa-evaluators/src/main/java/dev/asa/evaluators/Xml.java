package dev.asa.evaluators;

import dev.asa.scoring.CheckResult;
import java.io.IOException;
import java.io.StringReader;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Well-formedness of XML with the JDK parser, configured so that a deliverable can never make the
 * evaluator read a file or open a connection: document type declarations are refused outright (they
 * are what external entities, XXE, and entity-expansion bombs need), and external DTDs, schemas and
 * entities are disabled as a second line of defence.
 */
final class Xml {
  private Xml() {}

  static CheckResult check(String content) {
    try {
      Document doc = newBuilder().parse(new InputSource(new StringReader(content)));
      return CheckResult.passed(
          "well-formed XML (root element <" + doc.getDocumentElement().getTagName() + ">)");
    } catch (SAXParseException e) {
      return CheckResult.failed(
          "not well-formed XML: line "
              + e.getLineNumber()
              + ", column "
              + e.getColumnNumber()
              + ": "
              + e.getMessage()
              + (isDoctype(e)
                  ? " (document type declarations are refused: they can pull in external entities)"
                  : ""));
    } catch (SAXException | IOException e) {
      return CheckResult.failed("not well-formed XML: " + e.getMessage());
    }
  }

  private static boolean isDoctype(SAXParseException e) {
    return e.getMessage() != null && e.getMessage().contains("DOCTYPE");
  }

  private static DocumentBuilder newBuilder() {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    try {
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      factory.setNamespaceAware(true);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(THROWING); // the default handler also prints to stderr
      return builder;
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException(
          "the JDK XML parser does not support secure configuration", e);
    }
  }

  private static final ErrorHandler THROWING =
      new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {}

        @Override
        public void error(SAXParseException e) throws SAXException {
          throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
          throw e;
        }
      };
}
