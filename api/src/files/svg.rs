//! Which uploaded SVGs are accepted. An SVG is served from our origin (with a sandboxing CSP and
//! `nosniff`, see `routes::ipfs`) but also from any IPFS gateway, without them: so it must not
//! be able to run script, embed HTML, or load anything.
//!
//! The file is parsed as the browser parses it, as XML with its namespaces resolved, and judged
//! by local names and resolved namespaces, so a prefix (`<x:script xmlns:x="…svg">`), an entity
//! or a character reference cannot disguise what an element or attribute is.

use roxmltree::{Document, Node, NodeType, ParsingOptions};

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";

/// Elements refused in any namespace: script, and what runs or embeds foreign content
/// (XML Events' `handler` and `listener`, `foreignObject`).
const REFUSED_ELEMENTS: [(&str, &str); 4] = [
    ("script", "it contains a script"),
    ("handler", "it contains a script (handler)"),
    ("listener", "it has event handlers (listener)"),
    ("foreignObject", "it embeds foreign content (foreignObject)"),
];

/// Why the SVG `bytes` cannot be accepted, if it cannot.
pub fn problem(bytes: &[u8]) -> Option<String> {
    let Ok(text) = std::str::from_utf8(bytes) else { return Some("it is not UTF-8 text".into()) };
    if let Some(problem) = declared_encoding_problem(text) {
        return Some(problem);
    }
    // No DTD: it is how entities are declared (and how external ones are fetched).
    let options = ParsingOptions { allow_dtd: false, ..ParsingOptions::default() };
    let document = match Document::parse_with_options(text, options) {
        Ok(document) => document,
        Err(roxmltree::Error::DtdDetected) => return Some("it has a DOCTYPE (entities and external DTDs are not accepted)".into()),
        Err(err) => return Some(format!("it is not well-formed XML ({err})")),
    };
    let root = document.root_element();
    if root.tag_name().name() != "svg" || root.tag_name().namespace() != Some(SVG_NS) {
        return Some(format!("its root element must be <svg> in the SVG namespace ({SVG_NS})"));
    }
    document.descendants().find_map(|node| match node.node_type() {
        NodeType::Element => element_problem(node),
        // `<?xml-stylesheet?>` loads CSS or XSLT from elsewhere.
        NodeType::PI => Some("it has processing instructions (such as xml-stylesheet)".into()),
        NodeType::Text if node.parent().is_some_and(|p| p.tag_name().name() == "style") => {
            css_problem(node.text().unwrap_or_default()).map(|p| format!("its style sheet {p}"))
        }
        _ => None,
    })
}

fn element_problem(element: Node) -> Option<String> {
    let name = element.tag_name().name();
    if let Some((_, problem)) = REFUSED_ELEMENTS.iter().find(|(refused, _)| name.eq_ignore_ascii_case(refused)) {
        return Some((*problem).into());
    }
    if element.tag_name().namespace() == Some(XHTML_NS) {
        return Some(format!("it embeds HTML (<{name}>)"));
    }
    // `<set attributeName="href" to="javascript:…">` would make a link the checks below never see.
    if matches!(name, "set" | "animate" | "animateMotion" | "animateTransform" | "animateColor")
        && let Some(target) = element.attribute("attributeName")
    {
        let target = target.rsplit(':').next().unwrap_or_default().trim().to_ascii_lowercase();
        if target == "href" || target.starts_with("on") {
            return Some(format!("it animates a link or an event handler ({target})"));
        }
    }
    for attribute in element.attributes() {
        let local = attribute.name();
        if local.len() > 2 && local[..2].eq_ignore_ascii_case("on") {
            return Some(format!("it has event handlers ({local})"));
        }
        if local == "href" {
            if let Some(problem) = href_problem(name, attribute.value()) {
                return Some(problem);
            }
        } else if let Some(problem) = css_problem(attribute.value()) {
            return Some(format!("its {local} attribute {problem}"));
        }
    }
    None
}

/// An `href` (in any namespace: `xlink:href`, `x:href`, or none) may point only inside the
/// image; `<image>` and `<feImage>` may also hold an inline raster image.
fn href_problem(element: &str, value: &str) -> Option<String> {
    // As a URL parser reads it: surrounding spaces and controls dropped, tabs and newlines
    // removed anywhere ("java\tscript:").
    let url: String = value.trim_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    let lower = url.to_ascii_lowercase();
    if url.is_empty() || url.starts_with('#') {
        return None;
    }
    let inline_raster = ["png", "jpeg", "gif", "webp"]
        .iter()
        .any(|t| lower.starts_with(&format!("data:image/{t};")) || lower.starts_with(&format!("data:image/{t},")));
    if inline_raster && matches!(element, "image" | "feImage") {
        return None;
    }
    Some(if lower.starts_with("javascript:") {
        "it links to a javascript: URL".into()
    } else if lower.starts_with("data:") {
        format!("it links to a data: URL from <{element}>")
    } else {
        "it references another document (an href outside the image)".into()
    })
}

/// What in CSS text (a style sheet, a `style` attribute or a presentation attribute) could load
/// something: `@import`, `url()` outside the image, `image-set()` and `src()`. CSS escapes are
/// decoded first, as the browser's CSS parser does (`u\72l(` is `url(`).
fn css_problem(text: &str) -> Option<&'static str> {
    let css = unescape_css(text).to_ascii_lowercase();
    if css.contains("@import") {
        return Some("imports a style sheet (@import)");
    }
    if css.contains("image-set(") || css.contains("src(") {
        return Some("references external content (image-set or src)");
    }
    for (at, _) in css.match_indices("url(") {
        let target = css[at + 4..].trim_start().trim_start_matches(['"', '\'']);
        if !target.starts_with('#') {
            return Some("references external content (url() outside the image)");
        }
    }
    None
}

/// `text` with CSS escapes decoded: `\` and up to six hex digits (and one space after them) is
/// that code point; `\` and any other character is the character.
fn unescape_css(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\\') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let mut hex = String::new();
        while hex.len() < 6
            && let Some(&d) = chars.peek()
            && d.is_ascii_hexdigit()
        {
            hex.push(d);
            chars.next();
        }
        if hex.is_empty() {
            out.extend(chars.next());
        } else {
            out.push(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or('\u{fffd}'));
            if chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
        }
    }
    out.into()
}

/// The XML declaration may name no encoding but UTF-8: the bytes were checked as UTF-8, and a
/// browser decoding them otherwise (ISO-2022-JP, say) could see markup where the check saw text.
fn declared_encoding_problem(text: &str) -> Option<String> {
    let declaration = text.trim_start_matches('\u{feff}').strip_prefix("<?xml")?.split_once("?>")?.0;
    let (_, after) = declaration.split_once("encoding")?;
    let value = after.trim_start().strip_prefix('=')?.trim_start();
    let value = value.trim_start_matches(['"', '\'']).split(['"', '\'']).next().unwrap_or_default();
    (!matches!(value.to_ascii_lowercase().as_str(), "utf-8" | "utf8"))
        .then(|| format!("it declares an encoding other than UTF-8 ({value})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(inner: &str) -> String {
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">{inner}</svg>"#)
    }

    fn refused(text: &str) -> String {
        problem(text.as_bytes()).unwrap_or_else(|| panic!("accepted {text}"))
    }

    #[test]
    fn plain_drawings_gradients_and_inline_rasters_are_accepted() {
        for fine in [
            svg(r##"<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="10" height="10"/><use href="#g"/>"##),
            svg(r##"<use xlink:href="#g"/><rect style="fill: url( '#g' ); font-family: '\5FAE\8F6F'"/>"##),
            svg(r#"<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>"#),
            svg(r#"<text font="mono" x="1" opacity="0.5">button onload=x &lt;script&gt; &#60;script&#62;</text>"#),
            svg(r#"<style>rect { fill: #f80 } /* online */</style><title>a \ b</title>"#),
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!-- Generator: an editor -->\n{}",
                svg(r#"<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>"#)
            ),
        ] {
            assert_eq!(problem(fine.as_bytes()), None, "{fine}");
        }
    }

    #[test]
    fn scripts_are_refused_by_local_name_and_namespace_whatever_the_prefix() {
        assert!(refused(&svg("<script>alert(1)</script>")).contains("script"));
        // The issue's case: a prefix bound to the SVG namespace.
        let prefixed =
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/2000/svg"><x:script>alert(1)</x:script></svg>"#;
        assert!(refused(prefixed).contains("script"));
        // The default namespace rebound on the element itself, and the SVG namespace under a prefix at the root.
        assert!(refused(r#"<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></s:svg>"#).contains("script"));
        // HTML's script (and any HTML at all).
        assert!(refused(&svg(r#"<g xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></g>"#)).contains("HTML"));
        assert!(refused(&svg(r#"<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>"#)).contains("script"));
        assert!(refused(&svg(r#"<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://x.example"/>"#)).contains("HTML"));
        assert!(
            refused(&svg(r##"<ev:listener xmlns:ev="http://www.w3.org/2001/xml-events" event="load" handler="#h"/>"##))
                .contains("listener")
        );
        assert!(refused(&svg(r#"<handler type="application/ecmascript">alert(1)</handler>"#)).contains("handler"));
        assert!(refused(&svg(r#"<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"/></foreignObject>"#)).contains("foreignObject"));
        assert!(refused(&svg(r#"<x:foreignObject xmlns:x="http://www.w3.org/2000/svg"/>"#)).contains("foreignObject"));
    }

    #[test]
    fn event_handler_attributes_are_refused_in_any_case_and_namespace() {
        for handler in
            [r#"<rect onclick="x()"/>"#, r#"<rect ONCLICK = "x()"/>"#, r#"<rect x:onload="x()" xmlns:x="http://www.w3.org/2000/svg"/>"#]
        {
            assert!(refused(&svg(handler)).contains("event handlers"), "{handler}");
        }
        assert!(refused(r#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#).contains("onload"));
        assert!(refused(&svg(r##"<a href="#x"><set attributeName="href" to="javascript:alert(1)"/></a>"##)).contains("animates"));
        assert!(refused(&svg(r#"<animate attributeName="xlink:href" values="javascript:alert(1)"/>"#)).contains("animates"));
        assert!(refused(&svg(r#"<set attributeName="onclick" to="alert(1)"/>"#)).contains("animates"));
    }

    #[test]
    fn javascript_and_data_links_are_refused_under_any_prefix_and_encoding() {
        for link in [
            r#"<a href="javascript:alert(1)"><text>x</text></a>"#,
            r#"<a xlink:href="javascript:alert(1)"><text>x</text></a>"#,
            r#"<a l:href="javascript:alert(1)" xmlns:l="http://www.w3.org/1999/xlink"><text>x</text></a>"#,
            r#"<a href=" java&#9;script:alert(1)"><text>x</text></a>"#,
            r#"<a href="&#106;avascript:alert(1)"><text>x</text></a>"#,
            r#"<a href="JAVASCRIPT:alert(1)"><text>x</text></a>"#,
        ] {
            assert!(refused(&svg(link)).contains("javascript:"), "{link}");
        }
        assert!(refused(&svg(r#"<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"><text>x</text></a>"#)).contains("data:"));
        assert!(refused(&svg(r#"<a href="data:image/png;base64,AAAA"><text>x</text></a>"#)).contains("data:"));
        assert!(refused(&svg(r#"<image href="data:image/svg+xml;base64,PHN2Zy8+"/>"#)).contains("data:"));
    }

    #[test]
    fn external_references_are_refused() {
        for external in [
            r#"<image href="https://tracker.example/p.png"/>"#,
            r#"<image xlink:href="//tracker.example/p.png"/>"#,
            r#"<use href="other.svg#shape"/>"#,
            r#"<use xlink:href="https://x.example/sprites.svg#a"/>"#,
            r#"<a href="https://example.com"><text>x</text></a>"#,
            r#"<feImage href="https://x.example/a.png"/>"#,
        ] {
            assert!(refused(&svg(external)).contains("another document"), "{external}");
        }
        for css in [
            r#"<style>@import url(https://x.example/a.css);</style>"#,
            r#"<style>@import "a.css";</style>"#,
            r#"<style><![CDATA[ rect { fill: url(https://x.example/p.png) } ]]></style>"#,
            r#"<style>rect { background: u\72l(https://x.example/p.png) }</style>"#,
            r#"<style>@font-face { font-family: f; src: url('https://x.example/f.woff') }</style>"#,
            r#"<style>rect { background: image-set("https://x.example/p.png" 1x) }</style>"#,
            r#"<rect style="fill: url(https://x.example/p.png)"/>"#,
            r#"<rect fill="url(https://x.example/p.svg#g)"/>"#,
            r#"<rect cursor="url(https://x.example/c.cur), auto"/>"#,
            r#"<rect filter="\75 rl(https://x.example/f.svg#f)"/>"#,
        ] {
            assert!(refused(&svg(css)).contains("style") || refused(&svg(css)).contains("attribute"), "{css}");
        }
        assert!(refused(&format!("<?xml-stylesheet href=\"https://x.example/a.css\"?>{}", svg(""))).contains("processing instructions"));
        assert!(refused(&format!("<?xml-stylesheet type=\"text/xsl\" href=\"a.xsl\"?>{}", svg(""))).contains("processing instructions"));
    }

    #[test]
    fn doctypes_entities_and_encoding_tricks_are_refused() {
        let entity = r#"<!DOCTYPE svg [<!ENTITY s "<script>alert(1)</script>">]><svg xmlns="http://www.w3.org/2000/svg">&s;</svg>"#;
        assert!(refused(entity).contains("DOCTYPE"));
        let external = r#"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>"#;
        assert!(refused(external).contains("DOCTYPE"));
        let public = r#"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>"#;
        assert!(refused(public).contains("DOCTYPE"));
        let laughs = r#"<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg">&b;</svg>"#;
        assert!(refused(laughs).contains("DOCTYPE"));
        // An entity never declared is no XML.
        assert!(refused(&svg("&s;")).contains("well-formed"));
        let japanese = format!("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>{}", svg(""));
        assert!(refused(&japanese).contains("ISO-2022-JP"));
        assert!(problem(b"<svg xmlns=\"http://www.w3.org/2000/svg\">\xff</svg>").is_some());
    }

    #[test]
    fn only_an_svg_root_in_the_svg_namespace_is_an_svg() {
        assert!(refused("<svg><rect/></svg>").contains("root"));
        assert!(refused(r#"<svg xmlns="http://www.w3.org/1999/xhtml"/>"#).contains("root"));
        assert!(refused(r#"<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>"#).contains("well-formed"));
    }
}
