"""Writes public/locales/{lng}/translation.json from the Python sources in this folder."""
import importlib.util, json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
for lng in sys.argv[1:] or ['en', 'pt', 'fr', 'ge', 'bn', 'hi', 'ta']:
    path = os.path.join(here, f'{lng}.py')
    if not os.path.exists(path):
        continue
    spec = importlib.util.spec_from_file_location(lng, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    out = os.path.join(root, 'public', 'locales', lng)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'translation.json'), 'w', encoding='utf-8') as f:
        json.dump(getattr(mod, lng), f, ensure_ascii=False, indent=2)
        f.write('\n')
    print('wrote', lng)
