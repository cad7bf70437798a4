# Standard nbdev 2 setup.py: everything comes from settings.ini.
from configparser import ConfigParser
import setuptools, shlex

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

cfg_keys = 'version description keywords author author_email'.split()
expected = cfg_keys + "lib_name user branch license status min_python audience language".split()
for o in expected: assert o in cfg, "missing expected setting: {}".format(o)
setup_cfg = {o:cfg[o] for o in cfg_keys}

licenses = {'apache2': 'Apache-2.0'}   # an SPDX expression (licence classifiers are deprecated)
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.11 3.12'.split()

requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
# steb-lib[mteb]: evaluate the encoders MTEB 2 users hold (the tests run the pinned version of dev_requirements)
mteb_requirements = shlex.split(cfg.get('mteb_requirements', ''))
# steb-lib[onnx], steb-lib[openvino]: the fast CPU backends (models/backends, `steb evaluate --backend`): ONNX
# Runtime, OpenVINO and NNCF's int8, through transformers' own exporters
onnx_requirements = shlex.split(cfg.get('onnx_requirements', ''))
openvino_requirements = shlex.split(cfg.get('openvino_requirements', ''))
lic = licenses[cfg['license'].lower()]
min_python = cfg['min_python']

from pathlib import Path
shipped_data = sorted(str(p.relative_to('data')) for p in Path('data').rglob('*') if p.is_file()
                      and p.parts[1] not in ('fixtures', 'results') and not p.name.startswith('.'))
# each folder of data/ that ships files is a package of its own (setuptools warns of folders it would otherwise guess)
folders = {Path(f).parent.parts[:n] for f in shipped_data for n in range(len(Path(f).parent.parts) + 1)}
data_packages = sorted('.'.join(('steb_lib_data',) + parts) for parts in folders)

setuptools.setup(
    name = cfg['repo'],
    license = lic,
    classifiers = [
        'Development Status :: ' + statuses[int(cfg['status'])],
        'Intended Audience :: ' + cfg['audience'].title(),
        'Natural Language :: ' + cfg['language'].title(),
    ] + ['Programming Language :: Python :: '+o for o in py_versions[py_versions.index(min_python):]],
    url = cfg['git_url'],
    # steb_lib.testing (tiny random models for the tests) is left out of the wheel; an editable install still has it
    packages = setuptools.find_packages(exclude=['steb_lib.testing', 'steb_lib.testing.*']) + data_packages,
    # data/ travels in the wheel as the package steb_lib_data (registries, dataset entries, STEB-lite samples, the
    # paper's numbers, bundled resources); the test fixtures and the committed results stay in the repository
    package_dir = {'steb_lib_data': 'data'},
    package_data = {'steb_lib_data': shipped_data},
    include_package_data = True,
    install_requires = requirements,
    extras_require={'dev': dev_requirements, 'mteb': mteb_requirements, 'onnx': onnx_requirements,
                    'openvino': openvino_requirements},
    python_requires = '>=' + cfg['min_python'],
    long_description = open('README.md', encoding='utf-8').read(),
    long_description_content_type = 'text/markdown',
    zip_safe = False,
    entry_points = {
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d']
    },
    **setup_cfg)
