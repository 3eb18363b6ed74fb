import { Space } from 'antd';
import { Link } from 'react-router';
import { CompetitionQuestions } from '../../components/CompetitionQuestions.tsx';

/** `review/grade`: the questions of a chosen competition, each opening its grades, awards and certificates. */
export default function GradeListPage() {
  return (
    <CompetitionQuestions
      title="赛题成绩"
      actionWidth={160}
      actions={(q) => (
        <Space>
          <Link to={`/question/grade/${q.id}`}>成绩</Link>
          <Link to={`/question/awards/${q.id}`}>获奖</Link>
          <Link to={`/question/certificate/${q.id}`}>证书</Link>
        </Space>
      )}
    />
  );
}
