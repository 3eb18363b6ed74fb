#!/usr/bin/python3
"""Reference values of every scoring metric, for server/test/metrics.test.ts (issue 21).

Run by hand, with Debian's scikit-learn 1.2 (package python3-sklearn), from the repository root:

    /usr/bin/python3 scripts/metric-fixtures.py

It writes server/test/fixtures/metrics/{labels,grades,binary,multiclass,numbers,rankings}.json. The data are generated
with a fixed seed, so a run on the same versions rewrites the same files. Each file holds cases: the truth, the
predictions, the evaluation's options and the expected score of each metric (null where scikit-learn gives NaN: the
score is not defined). Cases are kept to a few hundred rows; the million-row case is generated inside the test and
compared with a plain reference there.

Every value comes from scikit-learn except two metrics it lacks, computed here by the issue's own formulas:
- smape: 100/n * sum(2|p - t| / (|t| + |p|)), a term being 0 when both are 0;
- mapAtK: the mean over rows of the average precision at k (Kaggle's apk: a repeated item counts once), divided by
  min(|truth|, k).
and two compositions of scikit-learn values:
- gini: 2 * roc_auc_score - 1;
- multiAuc: the mean over the classes present in the truth of the one-vs-rest roc_auc_score of that class's column,
  which is roc_auc_score(multi_class='ovr', average='macro') whenever every column's class is in the truth (checked
  below); with a column for a class the truth lacks, scikit-learn refuses and that class is left out.
"""

import json
import warnings
import math
import os

import numpy as np
import sklearn
from sklearn import metrics as skm

warnings.simplefilter('ignore')  # scikit-learn warns of the hard cases on purpose: zero division, classes absent
assert sklearn.__version__.startswith('1.2'), f'scikit-learn 1.2 expected, found {sklearn.__version__}'

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'server', 'test', 'fixtures', 'metrics')
rng = np.random.default_rng(20260521)


def num(v):
    v = float(v)
    return None if math.isnan(v) or math.isinf(v) else v


def write(name, cases):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, f'{name}.json'), 'w', encoding='utf-8') as f:
        json.dump({'generator': 'scripts/metric-fixtures.py', 'sklearn': sklearn.__version__, 'cases': cases}, f, indent=None, separators=(',', ':'))
        f.write('\n')


# ---------------------------------------------------------------- labels (compared as text)
def label_case(name, truth, pred, positive='1'):
    truth = [str(t) for t in truth]
    pred = [str(p) for p in pred]
    present = set(truth) | set(pred)
    # scikit-learn's binary average needs at most two labels, the positive one among them when there are two.
    binary = len(present) == 1 or (len(present) == 2 and positive in present)
    expected = {
        'accuracy': num(skm.accuracy_score(truth, pred)),
        'balancedAccuracy': num(skm.balanced_accuracy_score(truth, pred)),
        'macroF1': num(skm.f1_score(truth, pred, average='macro', zero_division=0)),
        'microF1': num(skm.f1_score(truth, pred, average='micro', zero_division=0)),
        'weightedF1': num(skm.f1_score(truth, pred, average='weighted', zero_division=0)),
        'mcc': num(skm.matthews_corrcoef(truth, pred)),
    }
    if binary:
        # scikit-learn's binary average: the positive label against the other one.
        expected['f1'] = num(skm.f1_score(truth, pred, pos_label=positive, average='binary', zero_division=0))
        expected['precision'] = num(skm.precision_score(truth, pred, pos_label=positive, average='binary', zero_division=0))
        expected['recall'] = num(skm.recall_score(truth, pred, pos_label=positive, average='binary', zero_division=0))
    return {'name': name, 'options': {'positiveLabel': positive}, 'truth': truth, 'pred': pred, 'expected': expected}


def noisy(truth, classes, right):
    return [t if rng.random() < right else classes[rng.integers(len(classes))] for t in truth]


labels = []
t = list(rng.integers(0, 2, 300))
labels.append(label_case('binary 0/1', t, noisy(t, [0, 1], 0.7)))
t = list(rng.choice(['yes', 'no'], 250, p=[0.3, 0.7]))
labels.append(label_case('binary text, positive label yes', t, noisy(t, ['yes', 'no'], 0.6), positive='yes'))
classes = ['猫', '狗', 'bird', 'fish', 'A']
t = list(rng.choice(classes, 400, p=[0.4, 0.25, 0.2, 0.1, 0.05]))
labels.append(label_case('five classes, unbalanced, Chinese labels', t, noisy(t, classes, 0.55)))
t = list(rng.choice(['a', 'b', 'c', 'd'], 200))
labels.append(label_case('a class absent from the predictions', t, [p if p != 'd' else 'a' for p in noisy(t, ['a', 'b', 'c', 'd'], 0.5)]))
t = list(rng.choice(['a', 'b', 'c'], 200))
labels.append(label_case('labels only in the predictions', t, noisy(t, ['a', 'b', 'c', 'x', 'y'], 0.5)))
labels.append(label_case('all right', ['a', 'b', 'c', 'a'], ['a', 'b', 'c', 'a']))
labels.append(label_case('all wrong', ['a', 'b', 'a', 'b'], ['b', 'a', 'b', 'a']))
labels.append(label_case('one row', ['1'], ['1']))
labels.append(label_case('one row, wrong', ['1'], ['0']))
labels.append(label_case('positive label never predicted', ['1', '0', '1', '0', '0'], ['0', '0', '0', '0', '0']))
labels.append(label_case('positive label absent', ['0', '2', '2', '0'], ['0', '2', '0', '0'], positive='1'))
labels.append(label_case('one class everywhere', ['k'] * 5, ['k'] * 5))
write('labels', labels)

# ---------------------------------------------------------------- grades (quadratic weighted kappa)
def grade_case(name, truth, pred):
    truth = [int(v) for v in truth]
    pred = [int(v) for v in pred]
    return {'name': name, 'options': {}, 'truth': truth, 'pred': pred, 'expected': {'qwk': num(skm.cohen_kappa_score(truth, pred, weights='quadratic'))}}


grades = []
t = rng.integers(0, 6, 300)
grades.append(grade_case('grades 0 to 5, near misses', t, np.clip(t + rng.integers(-1, 2, 300), 0, 5)))
t = rng.integers(1, 5, 200)
grades.append(grade_case('grades 1 to 4, random', t, rng.integers(1, 5, 200)))
t = rng.integers(0, 4, 150)
grades.append(grade_case('a grade absent from the predictions', t, np.where(t == 3, 2, t)))
t = rng.integers(0, 3, 150)
grades.append(grade_case('grades only in the predictions', t, np.where(rng.random(150) < 0.2, 7, t)))
grades.append(grade_case('negative and unsorted grades', [-2, 0, 3, 3, -2, 0], [0, 0, 3, -2, -2, 3]))
grades.append(grade_case('perfect', [0, 1, 2, 3], [0, 1, 2, 3]))
grades.append(grade_case('one row', [2], [2]))
grades.append(grade_case('one grade everywhere', [1, 1, 1], [1, 1, 1]))
write('grades', grades)

# ---------------------------------------------------------------- probabilities of the positive class
def binary_case(name, truth, prob):
    truth = [int(v) for v in truth]
    prob = [float(v) for v in prob]
    both = len(set(truth)) == 2
    auc = skm.roc_auc_score(truth, prob) if both else float('nan')
    return {
        'name': name,
        'options': {},
        'truth': truth,
        'pred': prob,
        'expected': {
            'auc': num(auc),
            'gini': num(2 * auc - 1),
            'averagePrecision': num(skm.average_precision_score(truth, prob)) if both else None,
            'logLoss': num(skm.log_loss(truth, prob, labels=[0, 1])),
        },
    }


binary = []
t = rng.integers(0, 2, 400)
binary.append(binary_case('continuous scores', t, np.clip(0.5 + (t - 0.5) * 0.3 + rng.normal(0, 0.25, 400), 0.001, 0.999)))
t = rng.integers(0, 2, 300)
binary.append(binary_case('many ties (scores on a 0.1 grid)', t, np.round(np.clip(0.5 + (t - 0.5) * 0.2 + rng.normal(0, 0.3, 300), 0, 1), 1)))
t = (rng.random(300) < 0.1).astype(int)
binary.append(binary_case('rare positives', t, rng.beta(2 + 3 * t, 5, 300)))
t = rng.integers(0, 2, 200)
p = np.where(rng.random(200) < 0.8, t, 1 - t).astype(float)
binary.append(binary_case('probabilities of exactly 0 and 1, some wrong', t, p))
binary.append(binary_case('exactly 0 and 1, all right', [0, 1, 1, 0], [0.0, 1.0, 1.0, 0.0]))
binary.append(binary_case('all scores tied', [0, 1, 0, 1, 1], [0.3] * 5))
binary.append(binary_case('one row', [1], [0.8]))
binary.append(binary_case('one class only', [0, 0, 0], [0.2, 0.5, 0.0]))
write('binary', binary)

# ---------------------------------------------------------------- probabilities of several classes
def multi_case(name, classes, truth, matrix):
    """classes: the prediction file's class columns, in its order; matrix: one row of probabilities per row."""
    matrix = np.asarray(matrix, dtype=float)
    order = sorted(range(len(classes)), key=lambda i: classes[i])
    sorted_classes = [classes[i] for i in order]
    present = [c for c in sorted_classes if c in set(truth)]
    per_class = [skm.roc_auc_score([1 if v == c else 0 for v in truth], matrix[:, classes.index(c)]) for c in present] if len(present) >= 2 else []
    multi_auc = float(np.mean(per_class)) if per_class else float('nan')
    if len(present) == len(classes) and len(present) > 2:
        ref = skm.roc_auc_score(truth, matrix[:, order], multi_class='ovr', average='macro', labels=sorted_classes)
        assert abs(ref - multi_auc) <= 1e-12 * abs(ref), (ref, multi_auc)
    return {
        'name': name,
        'options': {},
        'classes': classes,
        'truth': truth,
        'pred': [[float(v) for v in row] for row in matrix],
        'expected': {
            'multiLogLoss': num(skm.log_loss(truth, matrix[:, order], labels=sorted_classes)),
            'multiAuc': num(multi_auc),
        },
    }


def dirichlet(truth, classes, strength, n):
    alpha = np.ones((n, len(classes)))
    for i, v in enumerate(truth):
        if v in classes:
            alpha[i, classes.index(v)] += strength
    m = np.array([rng.dirichlet(a) for a in alpha])
    return m / m.sum(axis=1, keepdims=True)


multi = []
cls = ['a', 'b', 'c']
t = list(rng.choice(cls, 300))
multi.append(multi_case('three classes', cls, t, dirichlet(t, cls, 2.0, 300)))
cls = ['2', '10', '1', '猫']
t = list(rng.choice(cls, 250, p=[0.4, 0.3, 0.2, 0.1]))
multi.append(multi_case('four classes, columns not in sorted order', cls, t, dirichlet(t, cls, 1.5, 250)))
cls = ['x', 'y', 'z']
t = list(rng.choice(cls, 200))
m = np.round(dirichlet(t, cls, 3.0, 200), 1)
m[:, 2] = 1 - m[:, 0] - m[:, 1]
ok = m[:, 2] >= 0
multi.append(multi_case('ties on a 0.1 grid', cls, [v for v, k in zip(t, ok) if k], m[ok]))
cls = ['a', 'b', 'c']
t = list(rng.choice(cls, 100))
chosen = [v if rng.random() < 0.8 else cls[rng.integers(3)] for v in t]
one_hot = np.array([[1.0 if c == v else 0.0 for c in cls] for v in chosen])
multi.append(multi_case('probabilities of exactly 0 and 1', cls, t, one_hot))
cls = ['a', 'b', 'c', 'extra']
t = list(rng.choice(['a', 'b', 'c'], 150))
multi.append(multi_case('a class column the truth lacks', cls, t, dirichlet(t, cls, 2.0, 150)))
multi.append(multi_case('one row', ['a', 'b'], ['a'], [[0.7, 0.3]]))
write('multiclass', multi)

# ---------------------------------------------------------------- numbers
def smape(truth, pred):
    s = 0.0
    for t, p in zip(truth, pred):
        d = abs(t) + abs(p)
        s += 0.0 if d == 0 else 2 * abs(p - t) / d
    return 100 * s / len(truth)


def number_case(name, truth, pred):
    truth = [float(v) for v in truth]
    pred = [float(v) for v in pred]
    e = {
        'rmse': num(math.sqrt(skm.mean_squared_error(truth, pred))),
        'mae': num(skm.mean_absolute_error(truth, pred)),
        'r2': num(skm.r2_score(truth, pred)) if len(truth) >= 2 else None,
        'medae': num(skm.median_absolute_error(truth, pred)),
        'smape': num(smape(truth, pred)),
    }
    if all(v != 0 for v in truth):
        e['mape'] = num(skm.mean_absolute_percentage_error(truth, pred))
    if all(v >= 0 for v in truth) and all(v >= 0 for v in pred):
        e['rmsle'] = num(math.sqrt(skm.mean_squared_log_error(truth, pred)))
    return {'name': name, 'options': {}, 'truth': truth, 'pred': pred, 'expected': e}


numbers = []
t = rng.normal(50, 20, 300)
numbers.append(number_case('normal values with noise', t, t + rng.normal(0, 5, 300)))
t = rng.lognormal(3, 1, 300)
numbers.append(number_case('positive skewed values (prices)', t, t * rng.lognormal(0, 0.3, 300)))
t = rng.integers(0, 5, 200).astype(float)
numbers.append(number_case('zeros in truth and predictions (smape terms of 0)', t, np.where(rng.random(200) < 0.5, t, rng.integers(0, 5, 200))))
numbers.append(number_case('even count: median of the two middle errors', [1, 2, 3, 4], [1.5, 2, 5, 0]))
numbers.append(number_case('constant truth, exact predictions', [3, 3, 3], [3, 3, 3]))
numbers.append(number_case('constant truth, wrong predictions', [3, 3, 3], [3, 4, 3]))
numbers.append(number_case('one row', [2.5], [2.0]))
numbers.append(number_case('large magnitudes', list(1e9 + rng.normal(0, 1e3, 200)), list(1e9 + rng.normal(0, 1e3, 200))))
write('numbers', numbers)

# ---------------------------------------------------------------- rankings
def apk(actual, predicted, k):
    predicted = predicted[:k]
    score = 0.0
    hits = 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    return score / min(len(actual), k) if actual else 0.0


def ranking_case(name, truth, pred, k):
    value = float(np.mean([apk(set(a.split()), p.split(), k) for a, p in zip(truth, pred)]))
    return {'name': name, 'options': {'k': k}, 'truth': truth, 'pred': pred, 'expected': {'mapAtK': value}}


rankings = []
items = [f'i{j}' for j in range(40)]
truth = [' '.join(rng.choice(items, rng.integers(1, 6), replace=False)) for _ in range(200)]
pred = []
for a in truth:
    rel = a.split()
    cand = list(rng.choice(items, 12, replace=False))
    for r in rel:
        if rng.random() < 0.6:
            cand.insert(rng.integers(0, 12), r)
    pred.append(' '.join(dict.fromkeys(cand)))
rankings.append(ranking_case('k = 10', truth, pred, 10))
rankings.append(ranking_case('k = 3', truth, pred, 3))
rankings.append(ranking_case('repeated items, empty predictions, more truth than k', ['a b c d', 'a', 'x y', 'a b'], ['a a b', '', 'y  x', 'c d e'], 2))
rankings.append(ranking_case('one row', ['7 8'], ['8 1 7'], 10))
write('rankings', rankings)
print('written to', os.path.normpath(OUT))
